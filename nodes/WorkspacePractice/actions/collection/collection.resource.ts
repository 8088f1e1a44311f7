import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const collection = defineResource({
	option: {
		name: 'Collection',
		value: 'collection',
		description: 'A named set of related scenarios',
	},
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['collection'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List collections (named sets of related scenarios) with their scenario count, alphabetically by name',
				action: 'Get many collections of scenarios',
			},
		],
		default: 'getAll',
	},
	operations: { getAll },
});
