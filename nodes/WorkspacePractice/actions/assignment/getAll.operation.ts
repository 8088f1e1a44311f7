import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import type { QueryField } from '../shared/filter.fields';
import { programIds, properties, scenarioIds, toQuery, userEmails, userIds } from '../shared/filter.fields';

const filterFields: QueryField[] = [
	userIds,
	userEmails,
	scenarioIds,
	programIds,
	{
		kind: 'list',
		property: {
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
		},
	},
];

const fields: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: properties(filterFields),
	},
];

export const description = forOperation('assignment', 'getAll', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs = toQuery(this, itemIndex, filters, filterFields);
	return await apiList<IDataObject>(this, '/scenarios/assignments', qs, readListOptions(this, itemIndex));
}
