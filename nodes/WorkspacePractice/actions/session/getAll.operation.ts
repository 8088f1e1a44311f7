import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import type { QueryField } from '../shared/filter.fields';
import {
	collectionIds,
	endDate,
	excludeSystemUsers,
	filtersCollection,
	groupIds,
	programIds,
	scenarioIds,
	skillIds,
	readFilters,
	startDate,
	userEmails,
	userIds,
} from '../shared/filter.fields';
import { readSorting, sortFields } from '../shared/sort.fields';

const DEFAULT_SORT = 'created_at';

const filterFields: QueryField[] = [
	userIds,
	userEmails,
	groupIds,
	scenarioIds,
	collectionIds,
	skillIds,
	programIds,
	{
		kind: 'list',
		property: {
			displayName: 'Rank',
			name: 'rank',
			type: 'multiOptions',
			options: [
				{ name: 'Gold', value: 'gold' },
				{ name: 'Silver', value: 'silver' },
				{ name: 'Bronze', value: 'bronze' },
				{ name: 'Unranked', value: 'unranked' },
			],
			default: [],
			description: 'Only sessions that reached any of these ranks',
		},
	},
	startDate('sessions created'),
	endDate('sessions created'),
	excludeSystemUsers,
];

const fields: INodeProperties[] = [
	...returnAllAndLimit,
	filtersCollection(filterFields),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortFields(
			[
				{ name: 'Created At', value: 'created_at', description: 'When the session took place' },
				{ name: 'Duration', value: 'duration', description: 'How long the session lasted' },
				{ name: 'Score', value: 'score', description: 'The score the session earned' },
			],
			DEFAULT_SORT,
		),
	},
];

export const description = forOperation('session', 'getAll', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const qs = readFilters(this, itemIndex, filterFields);
	const sorting = readSorting(options, DEFAULT_SORT);
	if (sorting) qs.sorting = sorting;
	return await apiList<IDataObject>(this, '/sessions', qs, readListOptions(this, itemIndex));
}
