import {
	excludeSystemUsers,
	peopleFilters,
	UNTIL_DATE_RULE,
	queryField,
	type QueryField,
} from '../../../shared/fields/filter.fields';
import { readUuidLocator } from '../../../shared/fields/locator';
import { listOperation } from '../../../shared/operations/listOperation';
import { skillLocator } from './skill.locator';

const filterFields: QueryField[] = [
	...peopleFilters,
	// An as-of date counts what happened up to it: a date alone includes that day's practice.
	queryField('dateUntil', {
		displayName: 'As Of',
		name: 'end_date',
		type: 'dateTime',
		default: '',
		description: `Work out proficiency as it stood at this date and time, now when left out (${UNTIL_DATE_RULE})`,
	}),
	excludeSystemUsers,
];

export const { description, execute } = listOperation(
	'skill',
	(ctx, itemIndex) => `/skills/${readUuidLocator(ctx, itemIndex, 'skill', 'Skill ID')}/proficiency`,
	filterFields,
	{ operation: 'getProficiency', lead: [skillLocator()] },
);
