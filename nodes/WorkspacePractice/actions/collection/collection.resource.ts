import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const collection = defineResource({
	option: { name: 'Collection', value: 'collection', description: 'Named sets of related scenarios' },
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
				description: 'List collections, alphabetically by name',
				action: 'Get many collections',
			},
		],
		default: 'getAll',
	},
	operations: { getAll },
});
