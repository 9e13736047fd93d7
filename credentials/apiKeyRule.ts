// How the API key is sent, and where (docs/api-contract.md §2): used by the credential's `authenticate`
// (every request n8n makes with the credential, the HTTP Request node's included) and by the nodes'
// transport, which reads the credential once per execution and so builds the header itself.

/** The header the key travels in. */
export function authorizationHeader(apiKey: unknown): string {
	return `Bearer ${typeof apiKey === 'string' ? apiKey : String(apiKey ?? '')}`;
}

/** Origin of an absolute http(s) URL (or of `url` read against `base`); undefined for anything else. */
export function httpOrigin(url: unknown, base?: unknown): string | undefined {
	const href = typeof url === 'object' && url !== null && 'href' in url ? url.href : url;
	if (typeof href !== 'string') return undefined;
	try {
		const parsed = typeof base === 'string' && base !== '' ? new URL(href, base) : new URL(href);
		return /^https?:$/.test(parsed.protocol) ? parsed.origin : undefined;
	} catch {
		return undefined;
	}
}

/** The key goes only to the Base URL's origin: never to another host, port or scheme. */
export function keyMayGoTo(targetOrigin: string | undefined, baseUrl: unknown): boolean {
	const allowed = httpOrigin(baseUrl);
	return allowed !== undefined && targetOrigin === allowed;
}
