import { ManualExecutionCancelledError, sleep } from 'n8n-workflow';

/**
 * Waits `ms`, or rejects as soon as `signal` aborts (the user stopped the execution while a retry waits),
 * with the error n8n's own cancellation uses. Not n8n-workflow's `sleepWithAbort`: n8n 2.41's n8n-workflow,
 * which the nodes load from the user's n8n, does not export it; `sleep` is in every supported n8n (checked by
 * `npm run lint`).
 */
export async function sleepUnlessCancelled(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal === undefined) return await sleep(ms);
	if (signal.aborted) throw new ManualExecutionCancelledError('');
	let onAbort = () => {};
	const cancelled = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new ManualExecutionCancelledError(''));
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([sleep(ms), cancelled]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}
