import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const member = defineResource({
	option: { name: 'Member', value: 'member', description: 'People in the workspace' },
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['member'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List workspace members',
				action: 'Get many members',
			},
		],
		default: 'getAll',
	},
	operations: { getAll },
});
