/**
 * A promise with its resolve/reject outside. n8n-workflow 2.8 exports `createDeferredPromise`, 2.41
 * no longer does (it moved to @n8n/utils) and Node 20 has no `Promise.withResolvers`: the harness keeps
 * its own so it runs on both n8n generations.
 */
export interface Deferred<T> {
	promise: Promise<T>;
	resolve: (value: T) => void;
	reject: (error: Error) => void;
}

export function deferred<T>(): Deferred<T> {
	let resolve!: (value: T) => void;
	let reject!: (error: Error) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}
