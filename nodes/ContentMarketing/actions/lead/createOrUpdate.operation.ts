import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { readCustomFields } from './customFields';
import { collectionLabels } from '../common.descriptions';
import type { NodeError } from '../../helpers/itemErrors';
import { asNodeError, unexpectedValue, withItem } from '../../helpers/itemErrors';
import { forEachItem } from '../itemLoop';
import { addHint } from './hints';
import {
	assertCollectionFilled,
	assertEmail,
	assertEnum,
	assertId,
	assertMaxLength,
} from '../../helpers/validation';
import { isObject, readOptionalText } from '../../helpers/values';
import { LEAD_STATUSES, SOURCE_CHANNELS, UNASSIGN } from '../../helpers/vocabulary';
import { apiRequest, awaitOtherItems } from '../../transport';
import type { Session } from '../../transport/request';
import { sessionOf } from '../../transport/request';
import { sleepUnlessCancelled } from '../../transport/retry';
import {
	assignedToOption,
	createOnlyOptions,
	customFieldsOptions,
	notesOption,
	sourceChannelOptions,
	statusOptions,
} from './fields';
import type { WantedEmail } from './emailDirectory';
import { EmailDirectory } from './emailDirectory';
import { emailHeld, emailLockKey, lockEmail } from './emailLock';
import { emailKey, leadsWithEmail } from './leadsByEmail';
import { isKeyConflict, isReplayed, upsertIdempotencyKey } from './upsertKey';
import type { OperationExample } from '../types';

/** What Options › Fields the Service Cannot Update does with such a field on an existing lead. */
const UNCHANGEABLE_HANDLING = ['report', 'error'] as const;
type UnchangeableHandling = (typeof UNCHANGEABLE_HANDLING)[number];

const SET_ON_CREATE = 'Only set on a new lead: an existing lead keeps its own';

const properties: INodeProperties[] = [
	{
		// Look-up and POST are separate calls and e-mails are not unique at the service (docs/api-contract.md §4, §5; docs/leads-import.md).
		displayName:
			"Updates the lead with this e-mail, or creates one when there is none. Capital letters and spaces around the e-mail don't matter.",
		name: 'createOrUpdateNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName:
			'Name, Company, Job Title and Source Channel are only set on new leads: an existing lead keeps its own.',
		name: 'createOnlyNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description:
			"E-mail address of the lead, the key the lead is found by: surrounding spaces and letter case don't matter. Runs at the same moment with this e-mail make one lead: in one n8n process they take turns, and queue-mode workers send the e-mail's Idempotency-Key.",
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			assignedToOption,
			{ ...createOnlyOptions.company, description: SET_ON_CREATE },
			...customFieldsOptions,
			{ ...createOnlyOptions.jobTitle, description: SET_ON_CREATE },
			{ ...createOnlyOptions.name, description: SET_ON_CREATE },
			notesOption,
			{
				displayName: 'Source Channel',
				name: 'source_channel',
				type: 'options',
				options: sourceChannelOptions,
				default: 'import',
				description:
					'Where the lead came from. Only set on a new lead: an existing lead keeps its own.',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: statusOptions,
				default: 'new',
				description: 'Also applied to a lead this creates (right after creating it)',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Fields the Service Cannot Update',
				name: 'unchangeableFields',
				type: 'options',
				default: 'report',
				description:
					'What to do when the lead exists and Name, Company, Job Title or Source Channel differ from its values: the service sets these only when it creates a lead',
				options: [
					{
						name: 'Update the Rest and List Them',
						value: 'report',
						description:
							'The other fields are updated; the output lists each field that was not, with its value and the reason, under not_updated',
					},
					{
						name: 'Fail the Item',
						value: 'error',
						description:
							'Nothing is changed for the item and its error names the fields (with Continue On Fail the other items go on)',
					},
				],
			},
			{
				displayName: 'Preview Only',
				name: 'previewOnly',
				type: 'boolean',
				default: false,
				description:
					'Whether to only read: nothing is created or changed, and each item shows the outcome a real run would have and the fields it would change (changes, with old and new values)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['createOrUpdate'] } },
	properties,
);

const FIELD_NAMES = collectionLabels(properties, 'additionalFields');
const OPTION_NAMES = collectionLabels(properties, 'options');

/** The fields only POST /v1/leads takes (docs/api-contract.md §5), in the order errors name them. */
const CREATE_ONLY = ['name', 'company', 'job_title', 'source_channel'] as const;
type CreateOnlyField = (typeof CREATE_ONLY)[number];

/** One item's input, read and validated before any request. */
interface UpsertInput {
	email: string;
	/** Name, company, job title, source channel: sent on create, compared on update. */
	createOnly: Partial<Record<CreateOnlyField, string>>;
	customFields?: IDataObject;
	/** Status, assignee, notes: the fields PATCH takes besides custom fields. */
	patch: IDataObject;
	unchangeable: UnchangeableHandling;
	previewOnly: boolean;
}

function readInput(this: IExecuteFunctions, itemIndex: number): UpsertInput {
	const email = assertEmail.call(
		this,
		this.getNodeParameter('email', itemIndex),
		'Email',
		itemIndex,
	);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const createOnly: UpsertInput['createOnly'] = {};
	for (const key of ['name', 'company', 'job_title'] as const) {
		// Left empty, the field is not sent; anything but text (e.g. an object by expression) is refused.
		const text = readOptionalText.call(this, fields[key], FIELD_NAMES[key], itemIndex);
		if (text !== undefined)
			createOnly[key] = assertMaxLength.call(this, text, 200, FIELD_NAMES[key], itemIndex);
	}
	if (fields.source_channel !== undefined) {
		createOnly.source_channel = assertEnum.call(
			this,
			fields.source_channel,
			SOURCE_CHANNELS,
			FIELD_NAMES.source_channel,
			itemIndex,
		);
	}
	const patch: IDataObject = {};
	if (fields.status !== undefined)
		patch.status = assertEnum.call(
			this,
			fields.status,
			LEAD_STATUSES,
			FIELD_NAMES.status,
			itemIndex,
		);
	if (fields.assigned_to !== undefined) {
		patch.assigned_to =
			fields.assigned_to === UNASSIGN
				? null
				: assertId.call(this, fields.assigned_to, 'user', FIELD_NAMES.assigned_to, itemIndex);
	}
	if (fields.notes !== undefined) {
		const notes = readOptionalText.call(this, fields.notes, FIELD_NAMES.notes, itemIndex);
		patch.notes =
			notes === undefined
				? null
				: assertMaxLength.call(this, notes, 10_000, FIELD_NAMES.notes, itemIndex);
	}
	const customFields = readCustomFields.call(this, fields, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as unknown;
	let unchangeable: UnchangeableHandling = 'report';
	let previewOnly = false;
	if (isObject(options) && options.previewOnly !== undefined) {
		if (typeof options.previewOnly !== 'boolean')
			throw unexpectedValue.call(
				this,
				OPTION_NAMES.previewOnly,
				'true or false',
				options.previewOnly,
				itemIndex,
			);
		previewOnly = options.previewOnly;
	}
	if (isObject(options) && options.unchangeableFields !== undefined) {
		assertCollectionFilled.call(
			this,
			{ unchangeableFields: options.unchangeableFields },
			OPTION_NAMES,
			itemIndex,
			'option',
		);
		unchangeable = assertEnum.call<
			IExecuteFunctions,
			[unknown, readonly UnchangeableHandling[], string, number],
			UnchangeableHandling
		>(
			this,
			options.unchangeableFields,
			UNCHANGEABLE_HANDLING,
			OPTION_NAMES.unchangeableFields,
			itemIndex,
		);
	}
	return {
		email,
		createOnly,
		customFields:
			customFields !== undefined && Object.keys(customFields).length > 0 ? customFields : undefined,
		patch,
		unchangeable,
		previewOnly,
	};
}

/** A field the lead kept although the item set it; `field` is its name in the lead (API name) throughout. */
interface NotUpdated {
	field: CreateOnlyField;
	value: string;
	lead_value: string | null;
	reason: string;
}

function notUpdatedFields(lead: IDataObject, input: UpsertInput): NotUpdated[] {
	const result: NotUpdated[] = [];
	for (const field of CREATE_ONLY) {
		const value = input.createOnly[field];
		const current = typeof lead[field] === 'string' ? (lead[field] as string) : null;
		if (value === undefined || value === current) continue;
		result.push({
			field,
			value,
			lead_value: current,
			reason: `${field} is set only when a lead is created: the existing lead keeps its own`,
		});
	}
	return result;
}

/** What the item did to its lead. */
export type Outcome = 'created' | 'updated' | 'unchanged';

/** A field the item changes (or would change, in a preview): the lead's value before and after. */
interface Change {
	old: unknown;
	new: unknown;
}

/** Per field the item changes, old and new value; custom fields by key under `custom_fields`. */
type Changes = Record<string, Change | Record<string, Change>>;

/** What one item did: the lead as it is now (or would be, in a preview), and how it came to be. */
interface Upserted {
	lead: IDataObject;
	/** The lead as the service holds it: the answer of a write, or in a preview the lead as read (none: it would be created). */
	stored?: IDataObject;
	outcome: Outcome;
	notUpdated: NotUpdated[];
	changes: Changes;
}

const has = (record: IDataObject, field: string): boolean =>
	Object.prototype.hasOwnProperty.call(record, field);

/** The fields a new lead gets from the item (old values are null: there was no lead). */
function creationChanges(input: UpsertInput): Changes {
	const changes: Changes = { email: { old: null, new: input.email } };
	for (const [field, value] of Object.entries(input.createOnly))
		changes[field] = { old: null, new: value };
	for (const [field, value] of Object.entries(input.patch))
		if (value !== null) changes[field] = { old: null, new: value };
	const custom: Record<string, Change> = {};
	for (const [key, value] of Object.entries(input.customFields ?? {}))
		if (value !== null) custom[key] = { old: null, new: value };
	if (Object.keys(custom).length > 0) changes.custom_fields = custom;
	return changes;
}

/** What a PATCH with `patch` changes on `lead`: old and new value per field (null where the lead had none). */
function patchChanges(lead: IDataObject, patch: IDataObject): Changes {
	const changes: Changes = {};
	for (const [field, value] of Object.entries(patch)) {
		if (field !== 'custom_fields') {
			changes[field] = { old: has(lead, field) ? (lead[field] ?? null) : null, new: value };
			continue;
		}
		const current = isObject(lead.custom_fields) ? lead.custom_fields : {};
		const custom: Record<string, Change> = {};
		for (const [key, next] of Object.entries(value as IDataObject))
			custom[key] = { old: has(current, key) ? (current[key] ?? null) : null, new: next };
		changes.custom_fields = custom;
	}
	return changes;
}

/** The lead a preview shows: `lead` (or a new one) with the item's changes applied, as the service would store them. */
function previewedLead(lead: IDataObject, patch: IDataObject): IDataObject {
	const { custom_fields: customFields, ...fields } = patch;
	const result: IDataObject = { ...lead, ...fields };
	if (isObject(customFields)) {
		const merged: IDataObject = isObject(lead.custom_fields) ? { ...lead.custom_fields } : {};
		for (const [key, value] of Object.entries(customFields)) {
			if (value === null) delete merged[key];
			else merged[key] = value;
		}
		result.custom_fields = merged;
	}
	return result;
}

/** How many times a create refused for its key (another body is being created under it) is tried again. */
const KEY_CONFLICT_RETRIES = 2;
/** The first wait before trying again; doubled each time. */
const KEY_CONFLICT_WAIT_MS = 1_000;

/**
 * POST /v1/leads under the e-mail's Idempotency-Key (upsertKey.ts). The lead it answers, or `found`: a lead
 * with the e-mail that another request created (a replay of its answer, or the lead a look-up finds after
 * the key was refused for this body). A retry of this POST after a 5xx or a lost answer sends the same key
 * and body, so it cannot create twice either (docs/api-contract.md §8).
 */
async function postUnderEmailKey(
	this: IExecuteFunctions,
	session: Session,
	input: UpsertInput,
	body: IDataObject,
	itemIndex: number,
): Promise<{ lead: IDataObject; found: boolean }> {
	const { authorization } = await session.credential();
	const idempotencyKey = upsertIdempotencyKey(authorization, emailKey(input.email));
	for (let retry = 0; ; retry++) {
		let replayed = false;
		try {
			const lead = await apiRequest.call(this, 'POST', '/v1/leads', {
				body,
				itemIndex,
				idempotencyKey,
				// A replay after an attempt of this request that may have reached the service is its own create.
				onSuccess: (headers, earlierAttempt) => {
					replayed = isReplayed(headers) && !earlierAttempt;
				},
			});
			if (!replayed) return { lead, found: false };
			// The stored answer is the lead as it was created: read it as it is now.
			const current = await apiRequest.call(this, 'GET', `/v1/leads/${String(lead.id)}`, {
				itemIndex,
			});
			return { lead: current, found: true };
		} catch (error) {
			if (!isKeyConflict(error)) throw asNodeError(this.getNode(), error, itemIndex);
			// Another request created (or is creating) this e-mail with other fields under the same key.
			const [lead] = await leadsWithEmail.call(this, input.email, itemIndex, 1);
			if (lead !== undefined) return { lead, found: true };
			if (retry >= KEY_CONFLICT_RETRIES) {
				const nodeError = asNodeError(this.getNode(), error, itemIndex);
				const note = `Another request is creating a lead with ${input.email} under the same Idempotency-Key, and no lead with it could be found yet: run the node again for this item.`;
				nodeError.description = [nodeError.description, note].filter(Boolean).join(' · ');
				throw nodeError;
			}
			await sleepUnlessCancelled(KEY_CONFLICT_WAIT_MS * 2 ** retry, session.signal).catch(
				(cancelled: unknown) => {
					throw asNodeError(this.getNode(), cancelled, itemIndex);
				},
			);
		}
	}
}

async function createLead(
	this: IExecuteFunctions,
	session: Session,
	input: UpsertInput,
	itemIndex: number,
): Promise<Upserted> {
	const body: IDataObject = { email: input.email, ...input.createOnly };
	if (input.customFields !== undefined) body.custom_fields = input.customFields;
	const changes = creationChanges(input);
	if (input.previewOnly) {
		const newPatch: IDataObject = {};
		for (const [field, value] of Object.entries(input.patch))
			if (value !== null) newPatch[field] = value;
		return {
			lead: previewedLead(
				{ id: null, ...body, custom_fields: {} },
				{ ...newPatch, custom_fields: input.customFields },
			),
			outcome: 'created',
			notUpdated: [],
			changes,
		};
	}
	const { lead, found } = await postUnderEmailKey.call(this, session, input, body, itemIndex);
	if (found) return await updateLead.call(this, lead, input, itemIndex);
	// POST takes no status, assignee or notes: they follow in a PATCH (an unassigned, note-less lead needs none of theirs).
	const patch: IDataObject = {};
	if (input.patch.status !== undefined && input.patch.status !== lead.status)
		patch.status = input.patch.status;
	if (input.patch.assigned_to !== undefined && input.patch.assigned_to !== null)
		patch.assigned_to = input.patch.assigned_to;
	if (input.patch.notes !== undefined && input.patch.notes !== null)
		patch.notes = input.patch.notes;
	if (Object.keys(patch).length === 0)
		return { lead, stored: lead, outcome: 'created', notUpdated: [], changes };
	try {
		const updated = await apiRequest.call(this, 'PATCH', `/v1/leads/${String(lead.id)}`, {
			body: patch,
			itemIndex,
		});
		return { lead: updated, stored: updated, outcome: 'created', notUpdated: [], changes };
	} catch (error) {
		const nodeError = asNodeError(this.getNode(), error, itemIndex);
		const note = `The lead ${String(lead.id)} was created; setting its ${Object.keys(patch).join(', ')} failed: run the node again to update it.`;
		nodeError.description = [nodeError.description, note].filter(Boolean).join(' · ');
		throw nodeError;
	}
}

/**
 * Whether the lead already holds `value` under `field` (an own key: a custom field named `toString` is
 * one like any other). A field the answer lacks is taken as different: e.g. Notes are compared only when
 * the service returns them, and sent otherwise.
 */
function holds(record: IDataObject, field: string, value: unknown): boolean {
	return has(record, field) && (record[field] ?? null) === value;
}

/**
 * The part of the item's PATCH that would change the lead: a field (or custom field) it already holds is
 * left out, so a row that changes nothing sends nothing (no new updated_at, no status event).
 */
function changesFor(lead: IDataObject, input: UpsertInput): IDataObject {
	const patch: IDataObject = {};
	for (const [field, value] of Object.entries(input.patch))
		if (!holds(lead, field, value)) patch[field] = value;
	if (input.customFields !== undefined) {
		const current = isObject(lead.custom_fields) ? lead.custom_fields : undefined;
		const changed: IDataObject = {};
		for (const [key, value] of Object.entries(input.customFields)) {
			// null removes the key: nothing to do when the lead has no such key.
			const same =
				current !== undefined && (value === null ? !has(current, key) : holds(current, key, value));
			if (!same) changed[key] = value;
		}
		if (Object.keys(changed).length > 0) patch.custom_fields = changed;
	}
	return patch;
}

async function updateLead(
	this: IExecuteFunctions,
	lead: IDataObject,
	input: UpsertInput,
	itemIndex: number,
): Promise<Upserted> {
	const notUpdated = notUpdatedFields(lead, input);
	if (notUpdated.length > 0 && input.unchangeable === 'error') {
		const names = notUpdated.map(({ field }) => FIELD_NAMES[field]).join(', ');
		throw new NodeOperationError(
			this.getNode(),
			withItem(
				`${names}: the service cannot change ${notUpdated.length === 1 ? 'this field' : 'these fields'} of the existing lead ${String(lead.id)}`,
				itemIndex,
			),
			{
				itemIndex,
				description: `${notUpdated.map(({ field, value, lead_value }) => `${FIELD_NAMES[field]}: the lead has ${lead_value === null ? 'none' : `"${lead_value}"`}, the item "${value}"`).join('; ')}. Nothing was changed for this item. Leave these fields out for existing leads, or set Options › Fields the Service Cannot Update to list them in the output instead.`,
			},
		);
	}
	const patch = changesFor(lead, input);
	if (Object.keys(patch).length === 0)
		return { lead, stored: lead, outcome: 'unchanged', notUpdated, changes: {} };
	const changes = patchChanges(lead, patch);
	if (input.previewOnly)
		return { lead: previewedLead(lead, patch), outcome: 'updated', notUpdated, changes };
	const updated = await apiRequest.call(this, 'PATCH', `/v1/leads/${String(lead.id)}`, {
		body: patch,
		itemIndex,
	});
	return { lead: updated, stored: updated, outcome: 'updated', notUpdated, changes };
}

/** Every item's input, read before the first request; with Continue On Fail a bad item keeps its error. */
function readInputs(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Array<UpsertInput | NodeError> {
	const continueOnFail = this.continueOnFail();
	return items.map((_item, itemIndex) => {
		try {
			return readInput.call(this, itemIndex);
		} catch (error) {
			const itemError = asNodeError(this.getNode(), error, itemIndex);
			if (!continueOnFail) throw itemError;
			return itemError;
		}
	});
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const inputs = readInputs.call(this, items);
	const wanted = new Map<string, WantedEmail>();
	/** Items still to answer per e-mail: the last one's lead is then let go. */
	const itemsLeft = new Map<string, number>();
	inputs.forEach((input, itemIndex) => {
		if (input instanceof Error) return;
		const key = emailKey(input.email);
		itemsLeft.set(key, (itemsLeft.get(key) ?? 0) + 1);
		if (!wanted.has(key)) wanted.set(key, { email: input.email, itemIndex });
	});
	const directory = new EmailDirectory(this, wanted, { atMost: 1 });
	directory.start();
	const session = sessionOf(this);
	// Items with the same e-mail run one after the other, each after the previous one's lead: one run never creates a lead twice.
	const byEmail = new Map<string, Promise<Upserted>>();
	const run = async (): Promise<INodeExecutionData[]> =>
		await forEachItem.call(this, items, async (itemIndex) => {
			const input = inputs[itemIndex];
			if (input instanceof Error) throw input;
			const key = emailKey(input.email);
			const previous = byEmail.get(key);
			const upsert = (async (): Promise<Upserted> => {
				// Waiting for the earlier item, this one gives its slot back: the earlier one may need it to go on.
				const earlier =
					previous &&
					(await awaitOtherItems(
						this,
						previous.catch(() => undefined),
					));
				// A preview follows the earlier item's lead as it would be; a write follows the lead as the service
				// holds it (none after a previewed create, so it looks again).
				const known = earlier && (input.previewOnly ? earlier.lead : earlier.stored);
				// A write holds the e-mail in this process from its look-up to its last write, so another
				// execution's item with it finds the lead this one makes (emailLock.ts). The pass's answer may
				// come before: "found" stays true, and "none" is checked by a read begun after the hold.
				if (!input.previewOnly && previous === undefined) await directory.passSettled(input.email);
				const release = input.previewOnly
					? undefined
					: await holdEmail.call(this, session, key, itemIndex);
				try {
					// After an earlier item with this e-mail failed (Continue On Fail), a fresh look-up: it may have created the lead.
					const [lead] =
						known !== undefined
							? [known]
							: previous
								? await leadsWithEmail.call(this, input.email, itemIndex, 1)
								: await directory.find(input.email, itemIndex);
					const result =
						lead === undefined
							? await createLead.call(this, session, input, itemIndex)
							: await updateLead.call(this, lead, input, itemIndex);
					// A preview changes nothing at the service: what it holds is what was read.
					if (input.previewOnly) result.stored = earlier !== undefined ? earlier.stored : lead;
					return result;
				} finally {
					release?.();
				}
			})();
			byEmail.set(key, upsert);
			try {
				const { lead, outcome, notUpdated, changes } = await upsert;
				return {
					...lead,
					created: outcome === 'created',
					outcome,
					changes: changes as IDataObject,
					not_updated: notUpdated as unknown as IDataObject[],
				};
			} finally {
				const left = (itemsLeft.get(key) ?? 1) - 1;
				if (left > 0) itemsLeft.set(key, left);
				else {
					itemsLeft.delete(key);
					byEmail.delete(key);
				}
			}
		});
	let output: INodeExecutionData[];
	try {
		output = await run();
	} finally {
		directory.close();
	}
	hintFieldsKept.call(this, output);
	return output;
}

/**
 * Waits until this item holds its e-mail on this credential's key in this process (emailLock.ts) and
 * answers the function that lets it go. Every decision to create then rests on a read begun after this.
 */
async function holdEmail(
	this: IExecuteFunctions,
	session: Session,
	key: string,
	itemIndex: number,
): Promise<() => void> {
	try {
		const { keyId } = await session.credential();
		const lockKey = emailLockKey(keyId, key);
		// Waiting for another execution's item, this one gives its slot back: that item may wait for a slot
		// of its own execution held by items waiting for this one's e-mails.
		if (!emailHeld(lockKey)) return await lockEmail(lockKey, session.signal);
		return await awaitOtherItems(this, lockEmail(lockKey, session.signal));
	} catch (error) {
		throw asNodeError(this.getNode(), error, itemIndex);
	}
}

/** An execution hint when existing leads kept fields the items set (n8n shows it above the output). */
function hintFieldsKept(this: IExecuteFunctions, output: INodeExecutionData[]): void {
	const kept = output.filter(
		({ json }) => Array.isArray(json.not_updated) && json.not_updated.length > 0,
	).length;
	if (kept === 0) return;
	addHint(
		this,
		`${kept} existing ${kept === 1 ? 'lead' : 'leads'} kept ${kept === 1 ? 'its' : 'their'} own Name, Company, Job Title or Source Channel: these are only set when a lead is created. See not_updated in the output.`,
	);
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	// The second item finds the lead the first created and changes its status: the output shows created and updated, a field not updated
	// and the changes; the third previews one more status change (nothing written).
	parameters: () => ({
		email: 'schema.upsert@example.com',
		additionalFields: {
			name: 'Grace',
			company: '={{ $json.company }}',
			job_title: 'CTO',
			source_channel: 'import',
			status: '={{ $json.status }}',
			customFieldsJson: '{"plan": "pro"}',
		},
		options: { previewOnly: '={{ $json.preview === true }}' },
	}),
	input: () => [
		{ company: 'Example', status: 'contacted' },
		{ company: 'Example Two', status: 'qualified' },
		{ company: 'Example Two', status: 'lost', preview: true },
	],
};
