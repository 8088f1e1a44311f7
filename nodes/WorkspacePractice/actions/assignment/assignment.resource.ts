import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const assignment = defineResource({
	option: {
		name: 'Assignment',
		value: 'assignment',
		description:
			'A scenario a member was asked to practice by a due date, with status, attempts and best score',
	},
	offers: [
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List assignments: which member must practice which scenario by when, with status, attempts and best score; filter by member, scenario, program or status',
			action: 'Get many scenario assignments',
		},
	],
	operations: { getAll },
	simplify: { getAll: 'assignment' },
});
