import type { RequestAuth } from './behaviour/host';
import { ApiError } from './errors';
import { API_KEYS } from './fixtures';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const UNAUTHORIZED_HEADERS = { 'WWW-Authenticate': 'Bearer' };

function unauthorized(message: string): ApiError {
	return new ApiError('unauthorized', message, undefined, UNAUTHORIZED_HEADERS);
}

/** docs/api-contract.md §2: the key of `Authorization: Bearer <key>`, or 401. */
export function authenticate(header: string | undefined, now: Date): RequestAuth {
	if (!header) throw unauthorized('Missing Authorization header (expected "Bearer <API_KEY>")');
	const match = BEARER.exec(header);
	if (!match) throw unauthorized('Authorization header must use the Bearer scheme');
	const key = API_KEYS.find((candidate) => candidate.key === match[1]);
	if (!key) throw unauthorized('Invalid API key');
	if (key.expires_at !== null && Date.parse(key.expires_at) <= now.getTime())
		throw unauthorized('API key expired');
	return { accountId: key.account_id, scope: key.scope, keyRole: key.role };
}

const authByRequest = new WeakMap<object, RequestAuth>();

export function attachAuth(request: object, auth: RequestAuth): void {
	authByRequest.set(request, auth);
}

export function authOf(request: unknown): RequestAuth {
	const auth =
		typeof request === 'object' && request !== null ? authByRequest.get(request) : undefined;
	if (!auth) throw unauthorized('Missing Authorization header (expected "Bearer <API_KEY>")');
	return auth;
}

/** 403 unless the object belongs to the caller's account (docs/api-contract.md §2: other account → 403, not 404). */
export function assertOwned(auth: RequestAuth, owner: { account_id: string }, what: string): void {
	if (owner.account_id !== auth.accountId)
		throw ApiError.forbidden(`This API key has no permission for this ${what}`);
}

/** The object addressed by id: 404 when it exists nowhere (or is gone), 403 when another account owns it. */
export function findOwned<T extends { account_id: string }>(
	items: Map<string, T>,
	id: string,
	auth: RequestAuth,
	what: string,
	isGone: (item: T) => boolean = () => false,
): T {
	const item = items.get(id);
	if (!item || isGone(item)) throw ApiError.notFound(`No ${what} with id ${id}`);
	assertOwned(auth, item, what);
	return item;
}
