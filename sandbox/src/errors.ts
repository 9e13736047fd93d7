import { ZodError } from 'zod';

export type ErrorCode =
	| 'invalid_params'
	| 'unauthorized'
	| 'forbidden'
	| 'not_found'
	| 'method_not_allowed'
	| 'invalid_state'
	| 'crm_not_configured'
	| 'file_too_large'
	| 'rate_limited'
	| 'server_error';

const STATUS: Record<ErrorCode, number> = {
	invalid_params: 400,
	unauthorized: 401,
	forbidden: 403,
	not_found: 404,
	method_not_allowed: 405,
	invalid_state: 409,
	crm_not_configured: 409,
	file_too_large: 413,
	rate_limited: 429,
	server_error: 500,
};

/** An error answered in the contract's envelope (docs/api-contract.md §3). */
export class ApiError extends Error {
	readonly status: number;

	constructor(
		readonly code: ErrorCode,
		message: string,
		readonly param?: string,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
		this.status = STATUS[code];
	}

	static invalid(param: string, problem: string): ApiError {
		return new ApiError('invalid_params', `${param}: ${problem}`, param);
	}

	static notFound(message: string): ApiError {
		return new ApiError('not_found', message);
	}

	static forbidden(message: string): ApiError {
		return new ApiError('forbidden', message);
	}

	static invalidState(message: string): ApiError {
		return new ApiError('invalid_state', message);
	}

	/** The envelope of docs/api-contract.md §3. */
	toBody(requestId: string): {
		error: { code: ErrorCode; message: string; request_id: string; param?: string };
	} {
		return {
			error: {
				code: this.code,
				message: this.message,
				request_id: requestId,
				...(this.param === undefined ? {} : { param: this.param }),
			},
		};
	}
}

/** The first zod issue as a 400 naming the field by its dotted path. */
export function fromZodError(error: ZodError, fallbackParam = 'body'): ApiError {
	const issue = error.issues[0];
	if (issue.code === 'unrecognized_keys') {
		const key = issue.keys[0];
		const param = [...issue.path, key].join('.');
		return ApiError.invalid(param, 'unknown or read-only field');
	}
	const param = issue.path.length ? issue.path.join('.') : fallbackParam;
	return ApiError.invalid(param, issue.message);
}
