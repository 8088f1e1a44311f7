import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import type { QueryField } from '../shared/filter.fields';
import { groupIds, properties, toQuery } from '../shared/filter.fields';

const filterFields: QueryField[] = [groupIds];

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

export const description = forOperation('member', 'getAll', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs = toQuery(this, itemIndex, filters, filterFields);
	return await apiList<IDataObject>(this, '/workspace/members', qs, readListOptions(this, itemIndex));
}
