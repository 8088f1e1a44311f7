import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const context = defineResource({
	option: {
		name: 'Context',
		value: 'context',
		description: 'Contexts saved in the workspace, listed by ID and title',
	},
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['context'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the contexts of the workspace: ID, title and creation date',
				action: 'Get many contexts',
			},
		],
		default: 'getAll',
	},
	operations: { getAll },
});
