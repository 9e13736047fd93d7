import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { SEARCH_MAX_LENGTH } from '../helpers/validation';
import { trimmedText } from '../helpers/values';
import { apiRequest, readPage } from '../transport';

const PAGE_SIZE = 50;

/** One page of a list endpoint, with the server-side search `q` when the endpoint has one. */
async function searchPage(
	this: ILoadOptionsFunctions,
	path: string,
	filter: string | undefined,
	paginationToken: string | undefined,
	serverSearch: boolean,
): Promise<{ items: IDataObject[]; next?: string }> {
	const qs: IDataObject = { limit: PAGE_SIZE };
	if (serverSearch && filter) qs.q = filter.slice(0, SEARCH_MAX_LENGTH);
	if (paginationToken) qs.cursor = paginationToken;
	return readPage<IDataObject>(await apiRequest.call(this, 'GET', path, { qs }));
}

export async function searchLeads(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = await searchPage.call(this, '/v1/leads', filter, paginationToken, true);
	const results: INodeListSearchItems[] = page.items.map((lead) => {
		const email = trimmedText(lead.email) ?? String(lead.id);
		const name = trimmedText(lead.name);
		return { name: name ? `${name} <${email}>` : email, value: String(lead.id) };
	});
	return { results, paginationToken: page.next };
}

export async function searchResources(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = await searchPage.call(this, '/v1/resources', filter, paginationToken, true);
	const results: INodeListSearchItems[] = page.items.map((resource) => ({
		name: `${trimmedText(resource.title) ?? String(resource.id)} (${String(resource.type)}, ${String(resource.status)})`,
		value: String(resource.id),
		url: trimmedText(resource.url),
	}));
	return { results, paginationToken: page.next };
}

/** Webhook endpoints have no server-side search: the page is filtered by URL and description here. */
export async function searchWebhookEndpoints(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = await searchPage.call(this, '/v1/webhooks', filter, paginationToken, false);
	const needle = filter?.trim().toLowerCase();
	const results: INodeListSearchItems[] = page.items
		.filter(
			(endpoint) =>
				!needle ||
				[endpoint.url, endpoint.description, endpoint.id].some((value) =>
					String(value ?? '')
						.toLowerCase()
						.includes(needle),
				),
		)
		.map((endpoint) => {
			const label = trimmedText(endpoint.description);
			return {
				name: label ? `${label} (${String(endpoint.url)})` : String(endpoint.url ?? endpoint.id),
				value: String(endpoint.id),
			};
		});
	return { results, paginationToken: page.next };
}
