// Bad input per field: each fails before any request, with a NodeOperationError naming the field and the item.
import type { INodeParameters } from 'n8n-workflow';

import { NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

const rl = (value: string) => ({ __rl: true, mode: 'id', value });
/** An ID given by an expression: n8n's editor-side regex check does not apply, the node's own check does. */
const byExpression = (value: string) => rl(`={{ ${JSON.stringify(value)} }}`);
const LEAD = rl('lead_aaaaaaaaaaaaaaaa');

const cases: Array<[name: string, parameters: INodeParameters, message: RegExp]> = [
	[
		'Create: e-mail missing',
		{ operation: 'create', email: '={{ "" }}' },
		/^Email: is required \[item 0\]$/,
	],
	[
		'Create: e-mail malformed',
		{ operation: 'create', email: 'ada@' },
		/^Email: expected an e-mail address like name@example.com, got "ada@" \[item 0\]$/,
	],
	[
		'Create: name too long',
		{ operation: 'create', email: 'a@example.com', additionalFields: { name: 'x'.repeat(201) } },
		/^Name: must be at most 200 characters \(got 201\) \[item 0\]$/,
	],
	[
		'Create: unknown source channel',
		{ operation: 'create', email: 'a@example.com', additionalFields: { source_channel: 'tv' } },
		/^Source Channel: expected one of direct, organic_search, .*, got "tv" \[item 0\]$/,
	],
	[
		'Create: custom field key',
		{
			operation: 'create',
			email: 'a@example.com',
			additionalFields: { customFieldsUi: { field: [{ key: '1plan', value: 'x' }] } },
		},
		/^Custom Fields: the key "1plan" must start with a letter/,
	],
	[
		'Create: custom field key twice',
		{
			operation: 'create',
			email: 'a@example.com',
			additionalFields: {
				customFieldsUi: {
					field: [
						{ key: 'plan', value: 'a' },
						{ key: 'plan', value: 'b' },
					],
				},
			},
		},
		/^Custom Fields: the key "plan" is given twice \[item 0\]$/,
	],
	[
		'Create: custom fields JSON not JSON',
		{
			operation: 'create',
			email: 'a@example.com',
			additionalFields: { customFieldsJson: '{plan: pro' },
		},
		/^Custom Fields \(JSON\): is not valid JSON \[item 0\]$/,
	],
	[
		'Create: custom fields JSON not an object',
		{
			operation: 'create',
			email: 'a@example.com',
			additionalFields: { customFieldsJson: '[1, 2]' },
		},
		/^Custom Fields \(JSON\): must be a JSON object/,
	],
	[
		'Create: custom field value an object',
		{
			operation: 'create',
			email: 'a@example.com',
			additionalFields: { customFieldsJson: '{"plan": {"a": 1}}' },
		},
		/^Custom Fields \(JSON\): the value of "plan" must be a string, number, boolean or null \[item 0\]$/,
	],
	[
		'Get: ID of another kind',
		{ operation: 'get', leadId: byExpression('res_abc123') },
		/^Lead: expected an ID like lead_\w+, got "res_abc123" \[item 0\]$/,
	],
	[
		'Get: ID empty',
		{ operation: 'get', leadId: byExpression('') },
		/^Lead: is required \[item 0\]$/,
	],
	[
		'Get: ID with a space',
		{ operation: 'get', leadId: byExpression('lead_abc def') },
		/^Lead: expected an ID like/,
	],
	[
		'Get Many: days out of range',
		{ operation: 'getAll', filters: { days: 400 } },
		/^Created in the Last N Days: expected a whole number from 1 to 365, got 400 \[item 0\]$/,
	],
	[
		'Get Many: limit 0',
		{ operation: 'getAll', limit: 0 },
		/^Limit: expected a whole number at least 1, got 0 \[item 0\]$/,
	],
	[
		'Get Many: status',
		{ operation: 'getAll', filters: { status: 'hot' } },
		/^Status: expected one of new, contacted, qualified, converted, lost, got "hot"/,
	],
	[
		'Get Many: source resource ID',
		{ operation: 'getAll', filters: { source_resource_id: 'lead_abc' } },
		/^Source Resource ID: expected an ID like res_\w+, got "lead_abc" \[item 0\]$/,
	],
	[
		'Get Many: assignee ID',
		{ operation: 'getAll', filters: { assigned_to: 'bob' } },
		/^Assigned To: expected an ID like user_\w+, got "bob"/,
	],
	[
		'Get Many: sort',
		{ operation: 'getAll', options: { sort: 'phone' } },
		/^Sort By: expected one of created_at, updated_at, score, email, name, got "phone"/,
	],
	[
		'Update: status',
		{ operation: 'update', leadId: LEAD, updateFields: { status: 'won' } },
		/^Status: expected one of .*, got "won" \[item 0\]$/,
	],
	[
		'Update: assignee',
		{ operation: 'update', leadId: LEAD, updateFields: { assigned_to: 'lead_abc' } },
		/^Assigned To: expected an ID like user_\w+, got "lead_abc" \[item 0\]$/,
	],
	[
		'Update: notes too long',
		{ operation: 'update', leadId: LEAD, updateFields: { notes: 'n'.repeat(10_001) } },
		/^Notes: must be at most 10000 characters/,
	],
	[
		'Update: nothing to update',
		{ operation: 'update', leadId: LEAD, updateFields: {} },
		/^Update Fields: add at least one field/,
	],
	[
		'Sync to CRM: ID',
		{ operation: 'syncToCrm', leadId: byExpression('lead-abc') },
		/^Lead: expected an ID like lead_\w+, got "lead-abc" \[item 0\]$/,
	],
];

test.each(cases)('%s', async (_name, parameters, message) => {
	const result = await bed.run({ resource: 'lead', ...parameters });
	// The engine stores the error as a plain copy of the NodeOperationError.
	expect(result.error?.name).toBe('NodeOperationError');
	expect(result.error?.message).toMatch(message);
	expect(result.error?.context?.itemIndex).toBe(0);
	expect(await bed.requests()).toEqual([]);
});

test('the failing item is named: item 2 of 3', async () => {
	const result = await bed.run(
		{ resource: 'lead', operation: 'create', email: '={{ $json.email }}' },
		{
			input: [
				{ json: { email: 'a@example.com' } },
				{ json: { email: 'b@example.com' } },
				{ json: { email: 'not-an-email' } },
			],
		},
	);
	expect(result.error?.message).toBe(
		'Email: expected an e-mail address like name@example.com, got "not-an-email" [item 2]',
	);
	expect(result.error?.context?.itemIndex).toBe(2);
	// The two valid items before it were created.
	expect((await bed.requests()).filter((request) => request.method === 'POST')).toHaveLength(2);
});

test("a literal ID of the wrong form is refused by n8n before the workflow runs (the locator's regex)", async () => {
	const result = bed.run({ resource: 'lead', operation: 'get', leadId: rl('res_abc123') });
	// n8n 2.8: "The workflow has issues"; n8n 2.41 names the node and the locator's message
	await expect(result).rejects.toThrow(/^The (workflow|'Node Under Test' node) has issues/);
	expect(await bed.requests()).toEqual([]);
});
