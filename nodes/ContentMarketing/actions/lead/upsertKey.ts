import { createHmac } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

// Create or Update's POST carries an Idempotency-Key that every process using the same API key derives
// alike from the e-mail, so two n8n processes (queue-mode workers) creating one e-mail at once make one
// lead: the service replays the first answer, or refuses a second body under the key
// (docs/api-contract.md §8, docs/leads-import.md).

/**
 * The e-mail's Idempotency-Key: an HMAC-SHA256 keyed by the credential's header over the e-mail as
 * compared (`emailKey`). Without the API key it says nothing about the e-mail, and it never holds the key.
 */
export function upsertIdempotencyKey(authorization: string, normalisedEmail: string): string {
	const digest = createHmac('sha256', authorization)
		.update(`POST /v1/leads\n${normalisedEmail}`)
		.digest('hex');
	return `cm-upsert-${digest}`;
}

/** Whether the answer is one the service stored earlier and sent again (docs/api-contract.md §8). */
export function isReplayed(headers: IDataObject): boolean {
	const value = headers['idempotent-replayed'];
	const text = Array.isArray(value) ? String(value[0]) : value;
	return typeof text === 'string' && text.trim().toLowerCase() === 'true';
}

/** Whether a refusal names the Idempotency-Key: it was used with another body (another item's create). */
export function isKeyConflict(error: unknown): boolean {
	const { httpCode, cause, description } = (error ?? {}) as {
		httpCode?: unknown;
		cause?: { param?: unknown };
		description?: unknown;
	};
	if (String(httpCode) !== '400') return false;
	// serviceApiError (transport/errors.ts) keeps the service's error as the cause and names its parameter in the description.
	const param = typeof cause?.param === 'string' ? cause.param : undefined;
	return (
		param?.toLowerCase() === 'idempotency-key' ||
		(typeof description === 'string' && /parameter: idempotency-key/i.test(description))
	);
}
