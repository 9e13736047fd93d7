import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiScanItems, awaitOtherItems } from '../../transport';
import { emailKey, leadsWithEmail } from './leadsByEmail';

// Many items with e-mails can be looked up one e-mail at a time (one GET /v1/leads?q= each) or by one
// pass over the account's leads, 100 a page, matched here (docs/leads-import.md "What a sync costs").
// Neither the account's size nor the number of new e-mails is known up front, so the pass starts and
// stops as soon as the pages it has read reach the look-ups it would still have to make; the e-mails it
// has not settled are then looked up; a page that settles e-mails pays for itself and earns the next.
// Whichever way is cheaper, this costs at most about twice as much.

/** One distinct e-mail the input asks for. */
export interface WantedEmail {
	/** The e-mail as the first item gave it (the look-up's search text). */
	email: string;
	/** The first item with it: a look-up's error names this item. */
	itemIndex: number;
	/** How many items will ask `find` for it (1 by default): its leads are released after the last. */
	uses?: number;
}

interface Entry extends WantedEmail {
	uses: number;
	/** Matches found by the pass, most recently created first (kept in the form `keep` gives). */
	found: IDataObject[];
	/** Settles when the pass has the answer (the matches) or gives up on this e-mail (undefined). */
	settled: Promise<IDataObject[] | undefined>;
	settle: (found: IDataObject[] | undefined) => void;
	lookup?: Promise<IDataObject[]>;
}

export interface EmailDirectoryOptions {
	/** How many matches per e-mail are wanted (1: the most recently created lead). */
	atMost: number;
	/** What is kept of a matching lead (e.g. only its ID); the whole lead by default. */
	keep?: (lead: IDataObject) => IDataObject;
}

/** How many times in a row the pass resumes at its cursor after a page failed. */
const MAX_RESUMES = 2;

/**
 * Whether asking the page again may help: after 5xx answers or broken connections, yes; not after a
 * refusal (a 4xx), nor after a 429, which the transport has already waited out for as long as a request may.
 */
function resumable(error: unknown): boolean {
	const status = Number((error as { httpCode?: unknown } | undefined)?.httpCode);
	return !(status >= 400 && status < 500);
}

/** Where a newest-first read of the account's leads began: the newest lead it met. */
interface Mark {
	id: unknown;
	/** Its created_at in ms; NaN when the service gave none the node can read. */
	createdAt: number;
}

const markOf = (lead: IDataObject): Mark => ({
	id: lead.id,
	createdAt: typeof lead.created_at === 'string' ? Date.parse(lead.created_at) : Number.NaN,
});

/**
 * The leads with each wanted e-mail (exact, trimmed, case aside), most recently created first. Holds per
 * wanted e-mail at most `atMost` kept leads until its last item has its answer, and one page of the
 * account's leads while the pass reads: never the account's other leads.
 */
export class EmailDirectory {
	private readonly entries = new Map<string, Entry>();
	/** E-mails the pass has not settled yet. */
	private readonly open = new Set<string>();
	/** E-mails the whole pass met no lead for, not yet asked for: a read of the newest leads records theirs. */
	private readonly unmet = new Map<string, IDataObject[]>();
	/** The newest lead the reads have met: a lead made after it sorts ahead of it. */
	private newest?: Mark;
	private recentRead?: Promise<void>;
	private queuedRead?: Promise<void>;
	private pagesRead = 0;
	/** E-mails the last page settled. */
	private settledByLastPage = 0;
	private started = false;
	private closed = false;

	constructor(
		private readonly context: IExecuteFunctions,
		wanted: Map<string, WantedEmail>,
		private readonly options: EmailDirectoryOptions,
	) {
		for (const [key, { email, itemIndex, uses }] of wanted) {
			let settle: Entry['settle'] = () => undefined;
			const settled = new Promise<IDataObject[] | undefined>((resolve) => (settle = resolve));
			this.entries.set(key, { email, itemIndex, uses: uses ?? 1, found: [], settled, settle });
			this.open.add(key);
		}
	}

	/** Pages read by the pass so far. */
	get pages(): number {
		return this.pagesRead;
	}

	/** Starts the pass (once; a no-op when a look-up per e-mail is cheaper from the start). */
	start(): void {
		if (this.started) return;
		this.started = true;
		void this.pass();
	}

	/** Ends the pass at the next page: the node is done (e.g. stopped by an item's error) and reads no further. */
	close(): void {
		this.closed = true;
	}

	/**
	 * Resolves once the pass has its answer for this e-mail, or has given up on it (at once for an e-mail not
	 * asked for up front). Waiting for it before holding the e-mail keeps the hold short during a long pass.
	 */
	async passSettled(email: string): Promise<void> {
		const entry = this.entries.get(emailKey(email));
		if (entry === undefined) return;
		this.start();
		await entry.settled;
	}

	/**
	 * The leads with this e-mail; one not asked for up front is looked up on its own. An answer of none
	 * is as fresh as a look-up's: the pass's "none" is checked against the leads made since it began.
	 */
	async find(email: string, itemIndex: number): Promise<IDataObject[]> {
		const key = emailKey(email);
		const entry = this.entries.get(key);
		if (entry === undefined) {
			const leads = await leadsWithEmail.call(this.context, email, itemIndex, this.options.atMost);
			return leads.map((lead) => this.kept(lead));
		}
		try {
			this.start();
			const fromPass = await entry.settled;
			if (fromPass !== undefined && fromPass.length > 0) return fromPass;
			if (fromPass !== undefined && (await this.stillUnmet(key, itemIndex))) return [];
			const made = this.unmet.get(key);
			if (made !== undefined && made.length > 0) return made;
			return await this.lookUp(entry, itemIndex);
		} finally {
			// The last item with this e-mail has its answer: its leads are not held any longer.
			if (--entry.uses <= 0) {
				this.entries.delete(key);
				this.unmet.delete(key);
			}
		}
	}

	private async lookUp(entry: Entry, itemIndex: number): Promise<IDataObject[]> {
		if (entry.lookup === undefined) {
			const lookup = leadsWithEmail
				.call(this.context, entry.email, itemIndex, this.options.atMost)
				.then((leads) => leads.map((lead) => this.kept(lead)));
			entry.lookup = lookup;
			// A failed look-up is not kept: another item with this e-mail looks again.
			lookup.catch(() => {
				if (entry.lookup === lookup) entry.lookup = undefined;
			});
		}
		return await entry.lookup;
	}

	/**
	 * Whether the e-mail the pass met no lead for still has none: after a read of the newest leads that
	 * began after this call, down to the newest lead the reads had met. Items asking together share one
	 * read. False when that read found its leads (in `unmet`) or failed (then a look-up answers).
	 */
	private async stillUnmet(key: string, itemIndex: number): Promise<boolean> {
		try {
			// The item gives its slot back while it waits, so as many items share a read under faults (the
			// limit of the moment low) as without: the reads stay few, each still begun after its items asked.
			await awaitOtherItems(this.context, this.freshRead(itemIndex));
		} catch {
			this.unmet.delete(key);
			return false;
		}
		const made = this.unmet.get(key);
		return made !== undefined && made.length === 0;
	}

	/** A read that begins after this call: the one queued behind the running read, or a new one. */
	private freshRead(itemIndex: number): Promise<void> {
		if (this.queuedRead !== undefined) return this.queuedRead;
		const begin = (): Promise<void> => {
			const read = this.readNewest(itemIndex).finally(() => {
				if (this.recentRead === read) this.recentRead = undefined;
			});
			this.recentRead = read;
			return read;
		};
		if (this.recentRead === undefined) return begin();
		const queued = this.recentRead
			.catch(() => undefined)
			.then(() => {
				this.queuedRead = undefined;
				return begin();
			});
		this.queuedRead = queued;
		return queued;
	}

	/** Reads newest first down to the newest lead met before (a lead made since sorts ahead of it). */
	private async readNewest(itemIndex: number): Promise<void> {
		const since = this.newest;
		let first: IDataObject | undefined;
		const end = await apiScanItems.call(
			this.context,
			'/v1/leads',
			{ sort: 'created_at', order: 'desc' },
			(lead) => {
				first ??= lead;
				if (since !== undefined && this.isOlder(lead, since)) return 'stop';
				this.recordUnmet(lead);
				return 'continue';
			},
			{ itemIndex },
		);
		if (end === 'cut short') throw new Error('The list of leads ended early');
		if (first !== undefined) this.newest = markOf(first);
	}

	/** Older than the mark: created before its second (leads of the same second are read again), or the mark itself when times are unreadable. */
	private isOlder(lead: IDataObject, mark: Mark): boolean {
		const createdAt = markOf(lead).createdAt;
		if (Number.isNaN(mark.createdAt) || Number.isNaN(createdAt)) return lead.id === mark.id;
		return createdAt < mark.createdAt;
	}

	private recordUnmet(lead: IDataObject): void {
		if (typeof lead.email !== 'string') return;
		const made = this.unmet.get(emailKey(lead.email));
		if (made !== undefined && made.length < this.options.atMost) made.push(this.kept(lead));
	}

	private kept(lead: IDataObject): IDataObject {
		return this.options.keep ? this.options.keep(lead) : lead;
	}

	/**
	 * Whether one more page is worth its call: while the pages read stay below the look-ups left (the pass
	 * may still be the cheaper way), or while the last page settled at least one e-mail (a page then costs
	 * no more than the look-ups it replaces).
	 */
	private worthAnotherPage(): boolean {
		return this.pagesRead + 1 < this.open.size || this.settledByLastPage >= 1;
	}

	private async pass(): Promise<void> {
		let complete = false;
		let cursor: string | undefined;
		let failures = 0;
		while (this.worthAnotherPage()) {
			try {
				// Newest first, ties by ID as a look-up orders them: the first match of an e-mail is the lead a look-up would find.
				const end = await apiScanItems.call(
					this.context,
					'/v1/leads',
					{ sort: 'created_at', order: 'desc' },
					(lead) => {
						this.newest ??= markOf(lead);
						this.visit(lead);
						return this.open.size === 0 ? 'stop' : 'continue';
					},
					{
						cursor,
						onPage: (next) => {
							cursor = next;
							failures = 0;
						},
						pageSize: () => {
							if (this.closed || (this.open.size > 0 && !this.worthAnotherPage())) return 0;
							this.pagesRead++;
							this.settledByLastPage = 0;
							return 100;
						},
					},
				);
				// A list cut short (a repeated cursor, an empty page with a cursor, a page without a list) is not the account.
				complete = end === 'end';
				break;
			} catch (error) {
				// A page failed after the transport's retries: the pass resumes at its cursor while it is still the
				// cheaper way; otherwise each e-mail it did not settle is looked up, and a lasting failure is
				// reported by those look-ups, on their items.
				if (++failures > MAX_RESUMES || this.closed || !resumable(error)) break;
			}
		}
		for (const key of this.open) {
			const entry = this.entries.get(key) as Entry;
			if (complete && entry.found.length === 0) this.unmet.set(key, []);
			entry.settle(complete ? entry.found : undefined);
		}
		this.open.clear();
	}

	private visit(lead: IDataObject): void {
		if (typeof lead.email !== 'string') return;
		const key = emailKey(lead.email);
		if (!this.open.has(key)) return;
		const entry = this.entries.get(key) as Entry;
		entry.found.push(this.kept(lead));
		if (entry.found.length < this.options.atMost) return;
		this.open.delete(key);
		this.settledByLastPage++;
		entry.settle(entry.found);
	}
}
