import { defineResource } from '../types';
import { groupIds } from '../../../shared/fields/filter.fields';
import { listOperation } from '../../../shared/operations/listOperation';

export const member = defineResource({
	option: {
		name: 'Member',
		value: 'member',
		description: 'A person in the workspace, known by e-mail address',
	},
	offers: [
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List workspace members with name, e-mail address and role; optionally only the members of some groups',
			action: 'Get many workspace members',
		},
	],
	operations: { getAll: listOperation('member', '/workspace/members', [groupIds]) },
});
