import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../../shared/transport';
import { readListOptions, returnAllAndLimit } from '../../../shared/fields/list.fields';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import type { QueryField } from '../../../shared/fields/filter.fields';
import {
	excludeSystemUsers,
	filtersCollection,
	peopleFilters,
	readFilters,
	UNTIL_DATE_RULE,
} from '../../../shared/fields/filter.fields';
import { readUuidLocator } from '../../../shared/fields/locator';
import { skillLocator } from './skill.locator';

const filterFields: QueryField[] = [
	...peopleFilters,
	{
		// An as-of date counts what happened up to it: a date alone includes that day's practice.
		kind: 'dateUntil',
		property: {
			displayName: 'As Of',
			name: 'end_date',
			type: 'dateTime',
			default: '',
			description: `Work out proficiency as it stood at this date and time, now when left out (${UNTIL_DATE_RULE})`,
		},
	},
	excludeSystemUsers,
];

const fields: INodeProperties[] = [
	skillLocator(),
	...returnAllAndLimit,
	filtersCollection(filterFields),
];

export const description = forOperation('skill', 'getProficiency', fields);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const skillId = readUuidLocator(this, itemIndex, 'skill', 'Skill ID');
	const qs = readFilters(this, itemIndex, filterFields);
	return await apiList<IDataObject>(
		this,
		`/skills/${skillId}/proficiency`,
		qs,
		readListOptions(this, itemIndex),
	);
}
