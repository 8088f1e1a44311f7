import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const group = defineResource({
	option: {
		name: 'Group',
		value: 'group',
		description:
			'A group of workspace members, such as a team; member lists and analytics filter by group',
	},
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
				description: 'List the groups of workspace members (such as teams): ID and name',
				action: 'Get many member groups',
			},
		],
		default: 'getAll',
	},
	operations: { getAll },
});
