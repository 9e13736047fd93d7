// Lead › Get Many's Updated Since against the service's whole seconds: a time within a second counts from
// the start of that second, so a lead changed later in the same second is kept.
import type { INodeParameters } from 'n8n-workflow';

import { jsonOf, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

const getMany = (updatedSince: string, sort?: string): INodeParameters => ({
	resource: 'lead',
	operation: 'getAll',
	returnAll: true,
	simplify: false,
	filters: { updatedSince },
	...(sort ? { options: { sort } } : {}),
});

test.each([undefined, 'updated_at'])(
	'Updated Since within a second keeps a lead changed later in that second (sort %s)',
	async (sort) => {
		const lead = await bed.createLead({ email: 'second@example.com' });
		const changed = await bed.setLeadStatus(lead.id, 'contacted');
		// The service keeps the second the lead changed in; the change itself came somewhere within it.
		const second = Date.parse(changed.updated_at);
		expect(second % 1000).toBe(0);
		const result = await bed.run(getMany(new Date(second + 999).toISOString(), sort));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((found) => found.id)).toEqual([lead.id]);
		// The next second does not take it.
		const later = await bed.run(getMany(new Date(second + 1000).toISOString(), sort));
		expect(jsonOf(later)).toEqual([]);
	},
);
