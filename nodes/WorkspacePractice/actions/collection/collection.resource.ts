import { defineResource } from '../types';
import { listOperation } from '../../../shared/operations/listOperation';

export const collection = defineResource({
	option: {
		name: 'Collection',
		value: 'collection',
		description: 'A named set of related scenarios',
	},
	offers: [
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List collections (named sets of related scenarios) with their scenario count, alphabetically by name',
			action: 'Get many collections of scenarios',
		},
	],
	operations: { getAll: listOperation('collection', '/collections') },
});
