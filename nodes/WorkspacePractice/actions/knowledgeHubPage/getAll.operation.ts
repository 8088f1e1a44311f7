import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { validator } from '../../helpers/validate';
import { compact, forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import { folderLocator } from '../knowledgeHubFolder/folder.locator';
import { optionalUuid } from '../shared/locator';
import { skillLocator } from '../skill/skill.locator';

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
				name: 'folder_id',
				required: false,
				description: 'Only pages in this folder. Pick it from the list or give its UUID.',
			}),
			{
				displayName: 'Owner Name or ID',
				name: 'owner_id',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getMemberIds' },
				default: '',
				description:
					'Only pages owned by this workspace member. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Search',
				name: 'query',
				type: 'string',
				default: '',
				placeholder: 'e.g. pricing',
				description: 'Only pages whose title contains this text (not case-sensitive)',
			},
			skillLocator({
				name: 'skill_id',
				required: false,
				description: 'Only pages linked to this skill. Pick it from the list or give its UUID.',
			}),
			{
				displayName: 'Sort By',
				name: 'sort',
				type: 'options',
				options: [
					{ name: 'Created (Newest First)', value: 'created_at' },
					{ name: 'Title (A to Z)', value: 'title' },
					{ name: 'Updated (Newest First)', value: 'updated_at' },
				],
				default: 'updated_at',
				description: 'Order of the results; without this filter the service sorts by last update, newest first',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Archived', value: 'archived' },
					{ name: 'Draft', value: 'draft' },
					{ name: 'Published', value: 'published' },
				],
				default: 'published',
				description: 'Only pages in this state',
			},
			{
				displayName: 'Updated After',
				name: 'updated_after',
				type: 'dateTime',
				default: '',
				description: 'Only pages last updated on or after this date and time',
			},
			{
				displayName: 'Updated Before',
				name: 'updated_before',
				type: 'dateTime',
				default: '',
				description: 'Only pages last updated on or before this date and time',
			},
		],
	},
];

export const description = forOperation('knowledgeHubPage', 'getAll', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const check = validator(this, itemIndex);
	const dateOrSkip = (label: string, value: unknown) =>
		value === undefined || value === '' || value === null ? undefined : check.dateTime(label, value);
	const qs = compact({
		folder_id: optionalUuid(check, 'Folder', filters.folder_id),
		status: filters.status,
		// User IDs are plain strings (only Knowledge Hub and skill IDs are UUIDs).
		owner_id: typeof filters.owner_id === 'string' ? filters.owner_id.trim() : undefined,
		skill_id: optionalUuid(check, 'Skill', filters.skill_id),
		query: typeof filters.query === 'string' ? filters.query.trim() : undefined,
		updated_after: dateOrSkip('Updated After', filters.updated_after),
		updated_before: dateOrSkip('Updated Before', filters.updated_before),
		sort: filters.sort,
	});
	return await apiList<IDataObject>(this, '/knowledge-hub/pages', qs, readListOptions(this, itemIndex));
}
