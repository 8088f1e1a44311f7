import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { validator } from '../../helpers/validate';
import { compact, forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import { folderLocator } from '../knowledgeHubFolder/folder.locator';
import { optionalUuid } from '../shared/locator';
import { pageLocator } from '../knowledgeHubPage/page.locator';

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
				displayName: 'Extraction Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Failed', value: 'failed' },
					{ name: 'Pending', value: 'pending' },
					{ name: 'Processing', value: 'processing' },
					{ name: 'Ready', value: 'ready' },
				],
				default: 'ready',
				description: 'Only sources whose text extraction is in this state',
			},
			folderLocator({
				name: 'folder_id',
				required: false,
				description: 'Only sources in this folder. Pick it from the list or give its UUID.',
			}),
			pageLocator({
				displayName: 'Attached to Page',
				name: 'page_id',
				required: false,
				description: 'Only sources attached to this Knowledge Hub page. Pick it from the list or give its UUID.',
			}),
			{
				displayName: 'Search',
				name: 'query',
				type: 'string',
				default: '',
				placeholder: 'e.g. pricing',
				description: 'Only sources whose title contains this text (not case-sensitive)',
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				options: [
					{ name: 'Google Drive', value: 'google_drive' },
					{ name: 'Guru', value: 'guru' },
					{ name: 'Integration', value: 'integration' },
					{ name: 'Notion', value: 'notion' },
					{ name: 'Page', value: 'page' },
					{ name: 'Upload', value: 'upload' },
					{ name: 'URL', value: 'url' },
				],
				default: 'url',
				description: 'Only sources of this kind',
			},
		],
	},
];

export const description = forOperation('knowledgeHubSource', 'getAll', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const check = validator(this, itemIndex);
	const qs = compact({
		type: filters.type,
		status: filters.status,
		folder_id: optionalUuid(check, 'Folder', filters.folder_id),
		page_id: optionalUuid(check, 'Attached to Page', filters.page_id),
		query: typeof filters.query === 'string' ? filters.query.trim() : undefined,
	});
	return await apiList<IDataObject>(this, '/knowledge-hub/sources', qs, readListOptions(this, itemIndex));
}
