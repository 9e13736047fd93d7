// The editor's methods of the nodes (n8n's `methods`), as n8n-nodes-base's Airtable keeps them.
export * as listSearch from './listSearch';
export * as loadOptions from './loadOptions';
