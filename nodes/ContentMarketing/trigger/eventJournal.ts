import { createHash } from 'node:crypto';

import { isObject } from '../helpers/values';

/**
 * The journal of recently accepted events that the trigger keeps in static data (see eventLedger):
 * `{ "<unix second it expires>": "<fingerprint><fingerprint>..." }`, one string per second, each
 * fingerprint 8 characters: n8n parses, tracks and writes back static data on every call, so it stays a
 * few dozen keys rather than one key per event.
 */
export type JournalSegments = Record<string, string>;

export const FINGERPRINT_LENGTH = 8;

/**
 * The first 48 bits of SHA-256 of the event id, base64url (8 characters). Two different ids share one
 * with probability 2^-48 per pair; eventLedger only consults fingerprints for retries.
 */
export function fingerprint(eventId: string): string {
	return createHash('sha256').update(eventId).digest('base64url').slice(0, FINGERPRINT_LENGTH);
}

function fingerprintsIn(text: string): string[] {
	const found: string[] = [];
	for (let at = 0; at + FINGERPRINT_LENGTH <= text.length; at += FINGERPRINT_LENGTH)
		found.push(text.slice(at, at + FINGERPRINT_LENGTH));
	return found;
}

/** A stored segment as this module writes it; anything else in static data is ignored. */
function isSegment(key: string, text: unknown): text is string {
	return (
		/^\d{1,12}$/.test(key) &&
		typeof text === 'string' &&
		text.length > 0 &&
		text.length % FINGERPRINT_LENGTH === 0
	);
}

/**
 * One process's copy of the journal of one endpoint. `segments` is the very object the trigger puts
 * into static data: n8n serializes static data only when it saves it (after `webhook()`), so the save
 * carries every entry this process added up to that moment, those of calls that overlapped it too.
 */
export class EventJournal {
	readonly segments: JournalSegments = Object.create(null) as JournalSegments;

	/** Fingerprint -> the second its entry expires (the segment that holds it). */
	private readonly expiries = new Map<string, number>();

	private sweptAt = 0;

	get size(): number {
		return this.expiries.size;
	}

	/** Whether the journal holds a live entry for this fingerprint. */
	has(print: string, nowSeconds: number): boolean {
		return (this.expiries.get(print) ?? 0) > nowSeconds;
	}

	/** Adds an entry or makes it last longer; true when the journal changed. */
	add(print: string, expiresAt: number): boolean {
		const current = this.expiries.get(print);
		if (current !== undefined && current >= expiresAt) return false;
		if (current !== undefined) this.removeFromSegment(current, print);
		const key = String(expiresAt);
		this.segments[key] = (this.segments[key] ?? '') + print;
		this.expiries.set(print, expiresAt);
		return true;
	}

	/**
	 * Takes in the entries of the stored journal (another process's, or an older save of its own) and
	 * tells whether the stored journal lacks a live entry of this copy: then this copy must be saved.
	 */
	merge(stored: unknown, nowSeconds: number): boolean {
		const loaded = isObject(stored) ? stored : {};
		for (const [key, text] of Object.entries(loaded)) {
			if (!isSegment(key, text) || Number(key) <= nowSeconds || this.segments[key] === text)
				continue;
			for (const print of fingerprintsIn(text)) this.add(print, Number(key));
		}
		for (const [key, ours] of Object.entries(this.segments)) {
			const theirs = loaded[key];
			if (theirs === ours || Number(key) <= nowSeconds) continue;
			if (typeof theirs !== 'string') return true;
			const stored = new Set(fingerprintsIn(theirs));
			if (fingerprintsIn(ours).some((print) => !stored.has(print))) return true;
		}
		return false;
	}

	/** Drops expired entries (a sweep per second at most), then beyond `maxIds` those that expire first. */
	prune(nowSeconds: number, maxIds: number): void {
		if (nowSeconds !== this.sweptAt) {
			this.sweptAt = nowSeconds;
			for (const key of Object.keys(this.segments))
				if (Number(key) <= nowSeconds) this.dropSegment(key);
		}
		if (this.expiries.size <= maxIds) return;
		const byExpiry = Object.keys(this.segments).sort((a, b) => Number(a) - Number(b));
		for (const key of byExpiry) {
			const excess = this.expiries.size - maxIds;
			if (excess <= 0) return;
			this.dropSegment(key, excess);
		}
	}

	/** Drops the first `count` entries of a segment (the earliest added), all by default. */
	private dropSegment(key: string, count = Infinity): void {
		const expiresAt = Number(key);
		const text = this.segments[key] ?? '';
		const cut = Math.min(text.length, count * FINGERPRINT_LENGTH);
		for (const print of fingerprintsIn(text.slice(0, cut)))
			if (this.expiries.get(print) === expiresAt) this.expiries.delete(print);
		if (cut >= text.length) delete this.segments[key];
		else this.segments[key] = text.slice(cut);
	}

	private removeFromSegment(expiresAt: number, print: string): void {
		const key = String(expiresAt);
		const kept = fingerprintsIn(this.segments[key] ?? '')
			.filter((other) => other !== print)
			.join('');
		if (kept === '') delete this.segments[key];
		else this.segments[key] = kept;
	}
}
