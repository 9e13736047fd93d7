// The fixed part of the sandbox: two accounts, their users, CTAs and API keys (docs/api-contract.md §13).
import { createHash } from 'node:crypto';
import type { Account, Cta, Plan, User } from './model';

export const ACCOUNT_A = 'acct_demo000000000001';
export const ACCOUNT_B = 'acct_demo000000000002';

export function fixedAccounts(plan: Plan): Account[] {
	return [
		{ id: ACCOUNT_A, name: 'Demo Company', plan, crm: { crm_type: 'hubspot' } },
		{ id: ACCOUNT_B, name: 'Other Company', plan, crm: null },
	];
}

export const FIXED_USERS: readonly User[] = [
	{
		id: 'user_demo00000000a001',
		account_id: ACCOUNT_A,
		name: 'Olivia Owner',
		email: 'olivia@demo.example',
		role: 'owner',
	},
	{
		id: 'user_demo00000000a002',
		account_id: ACCOUNT_A,
		name: 'Adam Admin',
		email: 'adam@demo.example',
		role: 'admin',
	},
	{
		id: 'user_demo00000000a003',
		account_id: ACCOUNT_A,
		name: 'Mia Member',
		email: 'mia@demo.example',
		role: 'member',
	},
	{
		id: 'user_demo00000000b001',
		account_id: ACCOUNT_B,
		name: 'Otto Other',
		email: 'otto@other.example',
		role: 'owner',
	},
];

export const FIXED_CTAS: readonly Cta[] = [
	{
		id: 'cta_demo00000000a001',
		account_id: ACCOUNT_A,
		name: 'Download the report',
		type: 'form',
		url: 'https://demo.example/forms/report',
	},
	{
		id: 'cta_demo00000000a002',
		account_id: ACCOUNT_A,
		name: 'Book a demo',
		type: 'button',
		url: 'https://demo.example/demo',
	},
	{
		id: 'cta_demo00000000a003',
		account_id: ACCOUNT_A,
		name: 'Newsletter banner',
		type: 'banner',
		url: 'https://demo.example/newsletter',
	},
	{
		id: 'cta_demo00000000b001',
		account_id: ACCOUNT_B,
		name: 'Contact us',
		type: 'form',
		url: 'https://other.example/contact',
	},
];

export interface ApiKey {
	key: string;
	role: string;
	account_id: string;
	scope: 'full' | 'read_only';
	expires_at: string | null;
}

function keyString(role: string): string {
	const digest = createHash('sha256').update(`content-marketing-sandbox:${role}`).digest('hex');
	return `cmk_test_${role}_${digest.slice(0, 24)}`;
}

export const API_KEYS: readonly ApiKey[] = [
	{ key: keyString('full'), role: 'full', account_id: ACCOUNT_A, scope: 'full', expires_at: null },
	{
		key: keyString('read_only'),
		role: 'read_only',
		account_id: ACCOUNT_A,
		scope: 'read_only',
		expires_at: null,
	},
	{
		key: keyString('other_account'),
		role: 'other_account',
		account_id: ACCOUNT_B,
		scope: 'full',
		expires_at: null,
	},
	{
		key: keyString('other_account_read_only'),
		role: 'other_account_read_only',
		account_id: ACCOUNT_B,
		scope: 'read_only',
		expires_at: null,
	},
	{
		key: keyString('expired'),
		role: 'expired',
		account_id: ACCOUNT_A,
		scope: 'full',
		expires_at: '2024-01-01T00:00:00Z',
	},
];

/** `{ full, read_only, other_account, expired, other_account_read_only }` as GET /_sandbox/keys answers. */
export function keyMap(): Record<string, string> {
	return Object.fromEntries(API_KEYS.map((k) => [k.role, k.key]));
}
