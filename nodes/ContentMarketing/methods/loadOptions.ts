import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { UNASSIGN } from '../helpers/vocabulary';
import { apiRequestAllItems } from '../transport';

/** Used when the event-type list cannot be read: the spec's two event types. */
const FALLBACK_EVENT_TYPES: INodePropertyOptions[] = [
	{ name: 'Lead Created', value: 'lead.created', description: 'A lead was created' },
	{
		name: 'Lead Status Updated',
		value: 'lead.status_updated',
		description: "A lead's status changed",
	},
];

const MAX_OPTIONS = 1_000;

/** `lead.status_updated` → "Lead Status Updated", the names the trigger shows for the same events. */
function eventDisplayName(type: string): string {
	return type
		.split(/[._]/)
		.filter((word) => word !== '')
		.map((word) => word[0].toUpperCase() + word.slice(1))
		.join(' ');
}

function byName(a: INodePropertyOptions, b: INodePropertyOptions): number {
	return a.name.localeCompare(b.name);
}

export async function getUsers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const users = await apiRequestAllItems.call(this, '/v1/users', {}, { limit: MAX_OPTIONS });
	return users
		.map((user: IDataObject) => ({
			name: `${String(user.name ?? user.email ?? user.id)}${user.role ? ` (${String(user.role)})` : ''}`,
			value: String(user.id),
			description: typeof user.email === 'string' ? user.email : undefined,
		}))
		.sort(byName);
}

/** The users, plus "Nobody" to remove an assignment. */
export async function getAssignees(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return [{ name: 'Nobody (Unassign)', value: UNASSIGN }, ...(await getUsers.call(this))];
}

export async function getCtas(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const ctas = await apiRequestAllItems.call(this, '/v1/ctas', {}, { limit: MAX_OPTIONS });
	return ctas
		.map((cta: IDataObject) => ({
			name: `${String(cta.name ?? cta.id)}${cta.type ? ` (${String(cta.type)})` : ''}`,
			value: String(cta.id),
			description: typeof cta.url === 'string' ? cta.url : undefined,
		}))
		.sort(byName);
}

export async function getEventTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	let types: IDataObject[];
	try {
		types = await apiRequestAllItems.call(this, '/v1/webhooks/event-types');
	} catch (error) {
		this.logger.debug('Content Marketing: event types could not be loaded, using the known two', {
			error,
		});
		return FALLBACK_EVENT_TYPES;
	}
	const options = types
		.filter((type) => typeof type.type === 'string' && type.type !== 'webhook.test')
		.map((type) => ({
			name: eventDisplayName(String(type.type)),
			value: String(type.type),
			description: typeof type.description === 'string' ? type.description : undefined,
		}));
	return options.length > 0 ? options.sort(byName) : FALLBACK_EVENT_TYPES;
}
