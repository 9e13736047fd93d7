import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { normaliseBaseUrl } from './index';

interface TestAnswer {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

const CHECK_URL = 'check the Base URL (the API address your console shows, without /v1)';

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "unauthorized: API key expired" from the service's error body (§3), or "" when it sent none. */
function serviceError(body: unknown): string {
	const parsed = typeof body === 'string' ? safeJson(body) : body;
	if (!isObject(parsed) || !isObject(parsed.error)) return '';
	const { code, message } = parsed.error;
	return [code, message].filter((part) => typeof part === 'string' && part !== '').join(': ');
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** The answer of GET /v1/leads?limit=1 (§4) as a message; the key is never part of it. */
function judge(answer: TestAnswer, base: string): INodeCredentialTestResult {
	const status = answer.statusCode;
	const said = serviceError(answer.body);
	const detail = said === '' ? `HTTP ${status}` : `HTTP ${status}, ${said}`;
	if (status >= 200 && status < 300) {
		const body = typeof answer.body === 'string' ? safeJson(answer.body) : answer.body;
		if (isObject(body) && Array.isArray(body.data)) return { status: 'OK', message: 'Connection successful' };
		return {
			status: 'Error',
			message: `No Content Marketing API at this Base URL: ${base}/v1/leads answered HTTP ${status} but not with the API's list of leads; ${CHECK_URL}.`,
		};
	}
	if (status >= 300 && status < 400) {
		// Not followed: the key must not go to whatever the redirect points at.
		const location = typeof answer.headers.location === 'string' ? answer.headers.location : '';
		let target = location;
		try {
			target = new URL(location, base).origin;
		} catch {
			// keep the raw Location
		}
		return {
			status: 'Error',
			message: `The Base URL redirects (HTTP ${status}) to ${target || 'another address'}; the key was not sent there. Enter the API's own address as the Base URL.`,
		};
	}
	if (status === 401) {
		return {
			status: 'Error',
			message: `The API key was refused (${detail}): check the API key. The Base URL answered, so it is right.`,
		};
	}
	if (status === 403) {
		return {
			status: 'Error',
			message: `The API key is valid but may not read this account (${detail}): use a key with access to the account.`,
		};
	}
	if (status === 404 || status === 405) {
		return { status: 'Error', message: `No Content Marketing API at this Base URL (${detail}): ${CHECK_URL}.` };
	}
	if (status === 429) {
		// §2/§9: the key is checked before the rate limit, so a 429 means key and URL are right.
		return { status: 'OK', message: 'Connection successful (the service is rate limiting this key right now)' };
	}
	return { status: 'Error', message: `The service answered ${detail}: try again later, or ${CHECK_URL}.` };
}

function connectionError(error: unknown, base: string): string {
	const code = isObject(error) && typeof error.code === 'string' ? error.code : '';
	const reasons: Record<string, string> = {
		ECONNREFUSED: 'refused the connection',
		ENOTFOUND: 'has a host name that does not resolve',
		EAI_AGAIN: 'has a host name that could not be resolved',
		ETIMEDOUT: 'did not answer in time',
		ECONNABORTED: 'did not answer in time',
		ECONNRESET: 'closed the connection',
	};
	const reason = reasons[code] ? `${reasons[code]} (${code})` : `could not be reached${code ? ` (${code})` : ''}`;
	return `${base} ${reason}: ${CHECK_URL}.`;
}

/**
 * The credential's Test, run by n8n's credential tester through the nodes' `testedBy` (§2): one
 * GET /v1/leads?limit=1, redirects not followed, and a message that tells a wrong key (401) from a wrong
 * Base URL (404/405, not the API, unreachable) in the service's own words.
 */
export async function testCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data: ICredentialDataDecryptedObject = credential.data ?? {};
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey.trim() : '';
	const base = normaliseBaseUrl(typeof data.baseUrl === 'string' ? data.baseUrl : '');
	if (apiKey === '') return { status: 'Error', message: 'Enter the API key.' };
	if (!/^https?:\/\/[^/?#\s]+/i.test(base)) {
		return {
			status: 'Error',
			message: `The Base URL must be an address starting with https:// (or http:// for the sandbox), got "${base}".`,
		};
	}
	let answer: TestAnswer;
	try {
		answer = (await this.helpers.request({
			method: 'GET',
			uri: `${base}/v1/leads`,
			qs: { limit: 1 },
			headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			timeout: 20_000,
		})) as TestAnswer;
	} catch (error) {
		return { status: 'Error', message: connectionError(error, base).split(apiKey).join('***') };
	}
	const result = judge(answer, base);
	return { ...result, message: result.message.split(apiKey).join('***') };
}
