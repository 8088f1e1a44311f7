import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { validator } from '../../helpers/validate';
import { compact, forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import { folderLocator } from './folder.locator';
import { optionalUuid } from '../shared/locator';

const fields: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			folderLocator({
				displayName: 'Parent Folder',
				name: 'parent_id',
				required: false,
				description:
					'Only the direct children of this folder. Leave out to list every folder in the workspace, nested ones included.',
			}),
			{
				displayName: 'Search',
				name: 'query',
				type: 'string',
				default: '',
				placeholder: 'e.g. sales',
				description: 'Only folders whose name contains this text (not case-sensitive)',
			},
		],
	},
];

export const description = forOperation('knowledgeHubFolder', 'getAll', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const check = validator(this, itemIndex);
	const qs = compact({
		parent_id: optionalUuid(check, 'Parent Folder', filters.parent_id),
		query: typeof filters.query === 'string' ? filters.query.trim() : undefined,
	});
	return await apiList<IDataObject>(this, '/knowledge-hub/folders', qs, readListOptions(this, itemIndex));
}
