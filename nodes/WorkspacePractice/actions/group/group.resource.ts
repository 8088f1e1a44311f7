import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const group = defineResource({
	option: { name: 'Group', value: 'group', description: 'Groups of workspace members, such as teams' },
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['group'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List workspace groups',
				action: 'Get many groups',
			},
		],
		default: 'getAll',
	},
	operations: { getAll },
});
