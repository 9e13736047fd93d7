import type { IPollFunctions } from 'n8n-workflow';

/**
 * How long one poll may take, retries included (docs/api-contract.md §14, "Budget"): below n8n's poll
 * timeout and below the shortest Poll Times interval n8n 2.41 accepts (a minute), so that a poll is never
 * abandoned by n8n and never still running when the next one starts. A poll whose retries would go past
 * it fails with the service's last answer, emits nothing and keeps its position; the next poll catches up.
 */
export const MAX_POLL_BUDGET_MS = 30_000;

/**
 * n8n 2.41's durable scheduler tells each poll its own budget (`getPollBudgetMs`: its poll timeout, 45 s by
 * default, less a margin); older n8n-workflow types do not declare it, so it is looked up at run time.
 */
function n8nBudget(context: IPollFunctions): number | undefined {
	const candidate = (context as unknown as { getPollBudgetMs?: unknown }).getPollBudgetMs;
	if (typeof candidate !== 'function') return undefined;
	const budget: unknown = candidate.call(context);
	return typeof budget === 'number' && Number.isFinite(budget) && budget > 0 ? budget : undefined;
}

export function pollBudget(context: IPollFunctions): number {
	return Math.min(MAX_POLL_BUDGET_MS, n8nBudget(context) ?? MAX_POLL_BUDGET_MS);
}

/**
 * Runs `poll` with the time by which its every request must be over (epoch milliseconds), handed on to
 * each request as its `deadline` (transport/request.ts).
 */
export async function withinBudget<T>(
	context: IPollFunctions,
	poll: (deadline: number) => Promise<T>,
): Promise<T> {
	return await poll(Date.now() + pollBudget(context));
}
