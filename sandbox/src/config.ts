import { z } from 'zod';

/** Runtime settings of the sandbox (docs/api-contract.md §13, PATCH /_sandbox/config). */
export interface SandboxConfig {
	rate_limit: { requests: number; window_seconds: number } | null;
	allow_http_webhooks: boolean;
	webhook_retry_delays_ms: number[];
	webhook_timeout_ms: number;
	/** `GET /v1/events` is served (docs/api-contract.md §14); false answers it like an unknown path, as a service without it. */
	events_endpoint: boolean;
}

export const DEFAULT_CONFIG: SandboxConfig = {
	rate_limit: { requests: 600, window_seconds: 60 },
	allow_http_webhooks: true,
	webhook_retry_delays_ms: [10_000, 60_000, 600_000, 3_600_000, 21_600_000],
	webhook_timeout_ms: 5_000,
	events_endpoint: true,
};

export const configPatchSchema = z
	.object({
		rate_limit: z
			.object({
				requests: z.number().int().min(1).max(1_000_000),
				window_seconds: z.number().int().min(1).max(86_400),
			})
			.strict()
			.nullable(),
		allow_http_webhooks: z.boolean(),
		webhook_retry_delays_ms: z.array(z.number().int().min(0).max(86_400_000)).max(20),
		webhook_timeout_ms: z.number().int().min(1).max(120_000),
		events_endpoint: z.boolean(),
	})
	.strict()
	.partial();

export function copyConfig(config: SandboxConfig): SandboxConfig {
	return {
		...config,
		rate_limit: config.rate_limit && { ...config.rate_limit },
		webhook_retry_delays_ms: [...config.webhook_retry_delays_ms],
	};
}
