import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiScanItems } from '../../transport';
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
}

interface Entry extends WantedEmail {
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

/**
 * The leads with each wanted e-mail (exact, trimmed, case aside), most recently created first. Holds per
 * wanted e-mail at most `atMost` kept leads, and one page of the account's leads while the pass reads:
 * never the account's other leads.
 */
export class EmailDirectory {
	private readonly entries = new Map<string, Entry>();
	/** E-mails the pass has not settled yet. */
	private readonly open = new Set<string>();
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
		for (const [key, { email, itemIndex }] of wanted) {
			let settle: Entry['settle'] = () => undefined;
			const settled = new Promise<IDataObject[] | undefined>((resolve) => (settle = resolve));
			this.entries.set(key, { email, itemIndex, found: [], settled, settle });
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

	/** The leads with this e-mail; one not asked for up front is looked up on its own. */
	async find(email: string, itemIndex: number): Promise<IDataObject[]> {
		const entry = this.entries.get(emailKey(email));
		if (entry === undefined) {
			const leads = await leadsWithEmail.call(this.context, email, itemIndex, this.options.atMost);
			return leads.map((lead) => this.kept(lead));
		}
		this.start();
		const fromPass = await entry.settled;
		if (fromPass !== undefined) return fromPass;
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
		let stopped = false;
		try {
			if (this.worthAnotherPage()) {
				// Newest first, ties by ID as a look-up orders them: the first match of an e-mail is the lead a look-up would find.
				await apiScanItems.call(
					this.context,
					'/v1/leads',
					{ sort: 'created_at', order: 'desc' },
					(lead) => {
						this.visit(lead);
						return this.open.size === 0 ? 'stop' : 'continue';
					},
					{
						pageSize: () => {
							if (this.closed || (this.open.size > 0 && !this.worthAnotherPage())) {
								stopped = true;
								return 0;
							}
							this.pagesRead++;
							this.settledByLastPage = 0;
							return 100;
						},
					},
				);
			} else stopped = true;
		} catch {
			// The pass failed (after the transport's retries): each e-mail it did not settle is looked up, and a
			// lasting failure is reported by those look-ups, on their items.
			stopped = true;
		}
		for (const key of this.open) {
			const entry = this.entries.get(key) as Entry;
			entry.settle(stopped ? undefined : entry.found);
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
