import { ApiError } from '../errors';
import type { BehaviourHost, ResourceRecord } from './host';

/** A live resource of the account: 404 when it does not exist (or was deleted), 403 when another account's. */
export function ownResource(
	host: BehaviourHost,
	accountId: string,
	resourceId: string,
): ResourceRecord {
	const resource = host.findResource(resourceId);
	if (!resource || resource.deleted) throw ApiError.notFound(`Resource ${resourceId} not found`);
	if (resource.account_id !== accountId)
		throw ApiError.forbidden(`Resource ${resourceId} belongs to another account`);
	return resource;
}
