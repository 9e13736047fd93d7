import { createHmac } from 'node:crypto';

/** docs/api-contract.md §10: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`. */
export function signatureHeader(secret: string, timestamp: number, rawBody: string): string {
	const digest = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
	return `t=${timestamp},v1=${digest}`;
}
