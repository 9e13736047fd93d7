import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { AdaptiveLimit, MAX_PARALLEL_UPLOADS, Semaphore } from './concurrency';

export const CREDENTIAL_TYPE = 'contentMarketingApi';

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

/** The credential as decrypted once, with the base URL every request is made against. */
export interface SessionCredential {
	base: string;
	/**
	 * The header the credential's `authenticate` declares (`Authorization: Bearer <API Key>`), made once:
	 * n8n would read the credential from its database, decrypt it and evaluate the header's expression
	 * for every request.
	 */
	authorization: string;
}

/** What all requests of one node execution share: the credential, the adaptive limit and the upload slots. */
export interface Session {
	credential(): Promise<SessionCredential>;
	readonly limit: AdaptiveLimit;
	readonly uploads: Semaphore;
	readonly signal?: AbortSignal;
	/** When set (a poll's budget, see deadline.ts), no request runs and no retry waits past it. */
	deadline?: number;
}

/** The credential's base URL without trailing slashes and without a trailing `/v1` (every path starts with it). */
export function normaliseBaseUrl(baseUrl: string | undefined): string {
	return (baseUrl ?? '').trim().replace(/\/+$/, '').replace(/\/v1$/i, '');
}

// n8n makes one context object per node execution (and per load-options call or hook): the key of its session.
const sessions = new WeakMap<object, Session>();

/**
 * The session of this execution. Reading the credential costs n8n a database read and a decryption
 * each time; with hundreds of items in flight it is read once and shared.
 */
export function sessionOf(context: ApiContext): Session {
	let session = sessions.get(context);
	if (session !== undefined) return session;
	let credential: Promise<SessionCredential> | undefined;
	session = {
		credential: async () => {
			credential ??= readCredential(context);
			// A failed read (no credential set) is not kept: the next call reports it again.
			return await credential.catch((error: unknown) => {
				credential = undefined;
				throw error;
			});
		},
		limit: new AdaptiveLimit(),
		uploads: new Semaphore(MAX_PARALLEL_UPLOADS),
		signal: 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined,
	};
	sessions.set(context, session);
	return session;
}

async function readCredential(context: ApiContext): Promise<SessionCredential> {
	const data = await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const baseUrl = typeof data.baseUrl === 'string' ? data.baseUrl : undefined;
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey : '';
	return { base: normaliseBaseUrl(baseUrl), authorization: `Bearer ${apiKey}` };
}
