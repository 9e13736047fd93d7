import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

export interface ApiRequestOptions {
	/** JSON body. */
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/** The item the request is made for; named in errors. */
	itemIndex?: number;
	/** Sent as `Idempotency-Key` (docs/api-contract.md §8). Every JSON POST gets a fresh key per call when none is given, so it can be retried safely. */
	idempotencyKey?: string;
	headers?: IDataObject;
}

/** A `multipart/form-data` body, built anew for every attempt (a stream can be sent only once). */
export interface MultipartSource {
	build(): Promise<{
		contentType: string;
		contentLength?: number;
		body: Buffer | { destroy(): void };
	}>;
	/** Added to the description of a connection failure. */
	connectionHint?: string;
}

/** What the core sends: a JSON request, or a multipart one. */
export interface CoreRequest extends ApiRequestOptions {
	method: IHttpRequestMethods;
	path: string;
	multipart?: MultipartSource;
}
