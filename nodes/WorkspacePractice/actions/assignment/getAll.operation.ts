import { listOperation } from '../../../shared/operations/listOperation';
import {
	members,
	programIds,
	scenarioIds,
	queryField,
	type QueryField,
} from '../../../shared/fields/filter.fields';

const filterFields: QueryField[] = [
	members,
	scenarioIds,
	programIds,
	queryField('list', {
		displayName: 'Status',
		name: 'status',
		type: 'multiOptions',
		options: [
			{ name: 'Completed', value: 'completed' },
			{ name: 'Did Not Pass', value: 'did_not_pass' },
			{ name: 'In Progress', value: 'in_progress' },
			{ name: 'Not Started', value: 'not_started' },
			{ name: 'Past Due', value: 'past_due' },
		],
		default: [],
		description: 'Only assignments in any of these states',
	}),
];

export const { description, execute } = listOperation(
	'assignment',
	'/scenarios/assignments',
	filterFields,
);
