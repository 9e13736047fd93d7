import { testCredential } from '../transport/credentialTest';

export * as listSearch from './listSearch';
export * as loadOptions from './loadOptions';

/** The name every node gives as its credential's `testedBy`, and the method n8n's tester then calls. */
export const CREDENTIAL_TEST = 'contentMarketingApiTest';
export const credentialTest = { [CREDENTIAL_TEST]: testCredential };
