import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../helpers/itemErrors';
import { currentEventsPosition, eventsAfter, latestEvent } from './eventsSource';
import type { LeadEvent } from './leadEvent';
import { toItem } from './leadEvent';
import { currentLeadsCursor, latestLeadEvent, leadEventsSince } from './leadsSource';
import { leadFilters, selectedEvents, simplifyOutput } from '../leadEvents/params';
import { readActivationState, writeActivationState } from './activationState';
import { noMatchHint } from './noMatchHint';
import { withinBudget } from './budget';
import { unlessPollRunning } from './runningPolls';
import type { PollState } from './state';
import { readState, writeState } from './state';

/** A service without the events list answers 404 there (docs/api-contract.md §14); then the leads list is used. */
function isMissingEndpoint(error: unknown): boolean {
	if (typeof error !== 'object' || error === null) return false;
	const { httpCode } = error as IDataObject;
	return String(httpCode) === '404';
}

/** First poll of an activation: only where "now" is, in whichever source the service has. */
async function initialState(this: IPollFunctions, deadline: number): Promise<PollState> {
	try {
		return { source: 'events', events: await currentEventsPosition.call(this, deadline) };
	} catch (error) {
		if (!isMissingEndpoint(error)) throw asNodeError(this.getNode(), error);
	}
	return { source: 'leads', ...(await currentLeadsCursor.call(this, deadline)) };
}

async function newEvents(
	this: IPollFunctions,
	state: PollState,
	types: string[],
	deadline: number,
): Promise<{ events: LeadEvent[]; next: PollState }> {
	if (state.source === 'events') {
		const { events, next } = await eventsAfter.call(this, state.events, types, deadline);
		return { events, next: { source: 'events', events: next } };
	}
	const { events, next } = await leadEventsSince.call(this, state, deadline);
	return { events, next: { source: 'leads', ...next } };
}

/**
 * Manual mode (Fetch Test Event): the most recent matching event; the saved state is neither read nor moved.
 * With none, an error that says what to do, as n8n's own poll triggers do (Google Calendar, Google Drive):
 * an empty answer leaves the editor with "No trigger output" and no reason.
 */
async function testEvent(
	this: IPollFunctions,
	types: string[],
): Promise<INodeExecutionData[][] | null> {
	const node = this.getNode();
	const filters = leadFilters.call(this);
	const simplify = simplifyOutput.call(this);
	const wanted = (event: LeadEvent) =>
		types.includes(event.type) && toItem(node, event, filters, simplify) !== undefined;
	let event: LeadEvent | undefined;
	try {
		event = await latestEvent.call(this, types, wanted);
	} catch (error) {
		if (!isMissingEndpoint(error)) throw asNodeError(node, error);
		event = await latestLeadEvent.call(this, types, wanted);
	}
	const item = event && toItem(node, event, filters, simplify);
	if (item) return [[item]];
	throw new NodeOperationError(
		node,
		'No lead event matches the Events and Options of this trigger',
		{ description: noMatchHint(types, filters) },
	);
}

/**
 * One scheduled (or activation) poll; `deadline` is its budget's end (budget.ts), handed to every request.
 * Every request is made before anything is written: a poll that fails
 * part-way (the transport has already retried 429s, 5xx and dropped connections, within the poll's
 * budget) throws, emits nothing and leaves the saved state as it was, so the next poll reads the same
 * events again (docs/api-contract.md §14, "Polling").
 */
async function scheduledPoll(
	this: IPollFunctions,
	types: string[],
	deadline: number,
): Promise<INodeExecutionData[][] | null> {
	const node = this.getNode();
	const data: IDataObject = this.getWorkflowStaticData('node');
	let state = readState(data);
	if (state === undefined) {
		const global: IDataObject = this.getWorkflowStaticData('global');
		state = readActivationState(global, node);
		if (state === undefined) {
			// The first poll: only where "now" is, kept twice (activationState.ts says why).
			const initial = await initialState.call(this, deadline);
			writeState(data, initial);
			writeActivationState(global, node, initial);
			return null;
		}
	}

	const { events, next } = await newEvents.call(this, state, types, deadline);
	const filters = leadFilters.call(this);
	const simplify = simplifyOutput.call(this);
	const items = events
		.filter((event) => types.includes(event.type))
		.map((event) => toItem(node, event, filters, simplify))
		.filter((item): item is INodeExecutionData => item !== undefined);
	writeState(data, next);
	return items.length > 0 ? [items] : null;
}

export async function pollLeadEvents(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const types = selectedEvents.call(this);
	if (this.getMode() === 'manual') return await testEvent.call(this, types);
	return await unlessPollRunning(
		this,
		null,
		async () =>
			await withinBudget(this, async (deadline) => await scheduledPoll.call(this, types, deadline)),
	);
}
