import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, withIsNew } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { hasText } from '../../../shared/values';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';

const fields: INodeProperties[] = [
	{
		displayName:
			'A URL already in the workspace is not added twice: the existing source comes back unchanged, with "is_new" false',
		name: 'dedupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/pricing',
		description:
			'Web address (http or https) to ingest. Its text is extracted in the background: the new source starts as pending or processing and becomes ready later. If the URL already exists in the workspace, the existing source is returned instead of a new one.',
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Competitor pricing page',
		description: 'Display title of the source',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Cover',
				name: 'cover',
				type: 'string',
				default: '',
				description: 'Reference of a cover image for the source',
			},
			{
				displayName: 'Folder Names or IDs',
				name: 'folder_ids',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getKnowledgeHubFolders' },
				default: [],
				description:
					'Folders to put the new source in. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	},
];

export const description = forOperation('knowledgeHubSource', 'createFromUrl', fields);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const check = validator(this, itemIndex);
	const url = check.webUrl('URL', this.getNodeParameter('url', itemIndex, ''));
	const title = check.required('Title', this.getNodeParameter('title', itemIndex, ''));
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = { type: 'url', title, url };
	if (hasText(additional.cover)) body.cover = additional.cover.trim();
	if (additional.folder_ids !== undefined) {
		const folderIds = check.uuidList('Folders', additional.folder_ids);
		if (folderIds.length > 0) body.folder_ids = folderIds;
	}
	const { status, body: source } = await apiRequest<IDataObject>(this, {
		method: 'POST',
		path: '/knowledge-hub/sources',
		body,
		itemIndex,
	});
	// 201 = a new source; 200 = the URL was already in the workspace and that source came back.
	return withIsNew(source, status);
}
