import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import type { QueryField } from '../shared/filter.fields';
import { properties, toQuery } from '../shared/filter.fields';
import { folderLocator } from './folder.locator';

const filterFields: QueryField[] = [
	{
		kind: 'uuidLocator',
		property: folderLocator({
			displayName: 'Parent Folder',
			name: 'parent_id',
			required: false,
			description:
				'Only the direct children of this folder. Leave out to list every folder in the workspace, nested ones included.',
		}),
	},
	{
		kind: 'text',
		property: {
			displayName: 'Search',
			name: 'query',
			type: 'string',
			default: '',
			placeholder: 'e.g. sales',
			description: 'Only folders whose name contains this text (not case-sensitive)',
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

export const description = forOperation('knowledgeHubFolder', 'getAll', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs = toQuery(this, itemIndex, filters, filterFields);
	return await apiList<IDataObject>(this, '/knowledge-hub/folders', qs, readListOptions(this, itemIndex));
}
