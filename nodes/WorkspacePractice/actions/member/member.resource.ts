import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const member = defineResource({
	option: {
		name: 'Member',
		value: 'member',
		description: 'A person in the workspace, known by e-mail address',
	},
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
				description:
					'List workspace members with name, e-mail address and role; optionally only the members of some groups',
				action: 'Get many workspace members',
			},
		],
		default: 'getAll',
	},
	operations: { getAll },
});
