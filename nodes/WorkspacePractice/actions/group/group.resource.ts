import { defineResource } from '../types';
import { listOperation } from '../../../shared/operations/listOperation';

export const group = defineResource({
	option: {
		name: 'Group',
		value: 'group',
		description:
			'A group of workspace members, such as a team; member lists and analytics filter by group',
	},
	offers: [
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the groups of workspace members (such as teams): ID and name',
			action: 'Get many member groups',
		},
	],
	operations: { getAll: listOperation('group', '/workspace/groups') },
});
