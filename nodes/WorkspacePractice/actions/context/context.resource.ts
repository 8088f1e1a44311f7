import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const context = defineResource({
	option: { name: 'Context', value: 'context', description: 'Contexts defined in the workspace: ID, title and creation date' },
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
				description: 'List the contexts of the workspace',
				action: 'Get many contexts',
			},
		],
		default: 'getAll',
	},
	operations: { getAll },
});
