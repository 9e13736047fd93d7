// The trigger's journal entry of an event as nodes/ContentMarketing/trigger/eventJournal.ts writes it
// into n8n's static data: the first 8 base64url characters of the event id's SHA-256. Restated here
// because the checks read n8n's database, not the package's code; once for all of them.
import { createHash } from 'node:crypto';

export function journalFingerprint(eventId) {
	return createHash('sha256').update(eventId).digest('base64url').slice(0, 8);
}

/** Whether a workflow's `staticData` (JSON text in SQLite, an object from PostgreSQL) holds the entry. */
export function holdsJournalEntry(staticData, eventId) {
	const text = typeof staticData === 'string' ? staticData : JSON.stringify(staticData ?? null);
	return text.includes(journalFingerprint(eventId));
}
