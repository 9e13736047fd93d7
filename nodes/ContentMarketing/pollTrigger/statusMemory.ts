import { createHash } from 'node:crypto';

import { LEAD_STATUSES } from '../helpers/vocabulary';

/**
 * The leads-list fallback's memory of last seen statuses (docs/api-contract.md §14, "Fallback"), kept
 * small in static data: each lead as a 10-character digest of its id plus its status as one digit (a
 * status outside the contract's list as its text), all in one string, oldest first. At most
 * MAX_REMEMBERED_STATUSES leads: about 12 bytes each, 12 kB in all, whatever the ids' length.
 */

/** Leads whose last seen status is remembered (the most recently updated ones). */
export const MAX_REMEMBERED_STATUSES = 1000;

/** Bytes one remembered lead takes in the saved state (a status of the contract's list). */
export const BYTES_PER_STATUS = 12;

/** Lead id digest → status, oldest first. */
export type StatusMemory = Record<string, string>;

const KEY_LENGTH = 10;

/** The memory's key of a lead: 60 bits of its id's SHA-256 (a collision among 1,000 leads: ~1e-12). */
export function statusKey(leadId: string): string {
	return createHash('sha256').update(leadId).digest('base64url').slice(0, KEY_LENGTH);
}

function statusCode(status: string): string {
	const index = (LEAD_STATUSES as readonly string[]).indexOf(status);
	return index >= 0 ? String(index) : encodeURIComponent(status);
}

function statusOf(code: string): string {
	if (/^\d$/.test(code)) return LEAD_STATUSES[Number(code)] ?? code;
	try {
		return decodeURIComponent(code);
	} catch {
		return code;
	}
}

/** Moves the given leads (keys, given newest first) to the newest end and drops the oldest beyond the bound. */
export function remember(
	memory: StatusMemory,
	newestFirstSeen: Array<[string, string]>,
): StatusMemory {
	const next = { ...memory };
	for (const [key, status] of [...newestFirstSeen].reverse()) {
		delete next[key];
		next[key] = status;
	}
	const keys = Object.keys(next);
	for (const key of keys.slice(0, Math.max(0, keys.length - MAX_REMEMBERED_STATUSES)))
		delete next[key];
	return next;
}

/** The saved form: `<key><status code>` entries joined by commas. */
export function packStatuses(memory: StatusMemory): string {
	return Object.entries(memory)
		.map(([key, status]) => `${key}${statusCode(status)}`)
		.join(',');
}

/** Reads the saved form, or the plain object (lead id → status) saved states may still hold. */
export function unpackStatuses(value: unknown): StatusMemory {
	const memory: StatusMemory = {};
	if (typeof value === 'string') {
		for (const entry of value.split(',')) {
			if (entry.length > KEY_LENGTH)
				memory[entry.slice(0, KEY_LENGTH)] = statusOf(entry.slice(KEY_LENGTH));
		}
	} else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
		for (const [id, status] of Object.entries(value))
			if (typeof status === 'string') memory[statusKey(id)] = status;
	}
	return remember(memory, []);
}
