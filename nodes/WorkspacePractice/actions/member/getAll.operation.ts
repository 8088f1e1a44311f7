import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { toList } from '../../helpers/validate';
import { compact, forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';

const fields: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Group Names or IDs',
				name: 'group_ids',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getGroups' },
				default: [],
				description:
					'Only members of these workspace groups. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	},
];

export const description = forOperation('member', 'getAll', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as { group_ids?: string[] | string };
	const qs = compact({ group_ids: toList(filters.group_ids).join(',') });
	return await apiList<IDataObject>(this, '/workspace/members', qs, readListOptions(this, itemIndex));
}
