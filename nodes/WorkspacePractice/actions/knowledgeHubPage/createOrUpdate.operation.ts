import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionalUuid } from '../../../shared/fields/locator';
import { findPagesByTitle, pageChanges } from '../../../shared/knowledgeHub/pageSync';
import type { SyncResult } from '../../../shared/knowledgeHub/pageSync';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { apiRequest } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { folderLocator } from '../knowledgeHubFolder/folder.locator';
import {
	addPageLists,
	contentFromFields,
	pageListFields,
	pageVisibilityOptions,
	readPageContent,
} from './page.fields';

const byDisplayName = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

const fields: INodeProperties[] = [
	{
		displayName:
			'Finds the page by its exact title (case-sensitive; spaces around it ignored). Costs 2 API calls when nothing changed (a title search and the page), 3 when it updates, 2 when it creates; an unchanged page gets no new draft or version.',
		name: 'syncNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Playbook: Pricing',
		description:
			'Exact title of the page to create or update (case-sensitive; spaces around it are ignored). Two pages with this title are an error.',
	},
	...contentFromFields({
		displayName: 'Content',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		description:
			'The Markdown body the page should have. Compared with the page first (line endings and trailing spaces ignored): when equal, nothing is written.',
	}),
	{
		displayName: 'Publish',
		name: 'publish',
		type: 'boolean',
		default: true,
		description:
			'Whether to publish the content as a new version when the page is created or changed. Off keeps it as a draft to review, compared with the pending draft.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: (
			[
				...pageListFields(true),
				{
					displayName: 'Visibility',
					name: 'visibility',
					type: 'options',
					options: pageVisibilityOptions,
					default: 'workspace',
					description:
						'Who can see the page when it is created (an existing page keeps its visibility)',
				},
				folderLocator({
					displayName: 'Within Folder',
					name: 'withinFolder',
					required: false,
					description:
						'Look for the title only among pages in this folder, and create a missing page in it. Pages of the same title elsewhere are left alone.',
				}),
			] as INodeProperties[]
		).sort(byDisplayName),
	},
];

export const description = forOperation('knowledgeHubPage', 'createOrUpdate', fields);

function withResult(page: IDataObject, result: SyncResult): IDataObject {
	return { ...page, sync_result: result };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const check = validator(this, itemIndex);
	const title = check.required('Title', this.getNodeParameter('title', itemIndex, '')).trim();
	const content =
		(await readPageContent(
			this,
			itemIndex,
			this.getNodeParameter('content', itemIndex, ''),
			'Content',
		)) ?? '';
	const publish = this.getNodeParameter('publish', itemIndex, true) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const folderId = optionalUuid(check, 'Options → Within Folder', options.withinFolder);
	const lists: IDataObject = {};
	addPageLists(lists, options, check);
	// The page must stay in the folder it is looked for in, or the next run would not find it.
	const folderIds = lists.folder_ids as string[] | undefined;
	if (folderId && folderIds && !folderIds.includes(folderId))
		lists.folder_ids = [...folderIds, folderId];

	const matches = await findPagesByTitle(this, title, folderId, itemIndex);
	if (matches.length > 1) {
		const where = folderId ? ` in folder ${folderId}` : '';
		throw new NodeOperationError(
			this.getNode(),
			`Title: ${matches.length} pages are titled "${title}"${where} (IDs ${matches.map((p) => String(p.id)).join(', ')})`,
			{
				itemIndex,
				description: `Item ${itemIndex + 1}: Create or Update needs exactly one page per title. Archive or rename the extra pages (Knowledge Hub Page → Archive or Update), or set Options → Within Folder to tell them apart. Nothing was written.`,
			},
		);
	}

	if (matches.length === 0) {
		const body: IDataObject = { title, content, status: publish ? 'published' : 'draft' };
		if (options.visibility) body.visibility = options.visibility;
		Object.assign(body, lists);
		if (folderId && body.folder_ids === undefined) body.folder_ids = [folderId];
		const { body: page } = await apiRequest<IDataObject>(this, {
			method: 'POST',
			path: '/knowledge-hub/pages',
			body,
			itemIndex,
		});
		return withResult(page, 'created');
	}

	const pageId = String(matches[0].id);
	const path = `/knowledge-hub/pages/${encodeURIComponent(pageId)}`;
	const { body: current } = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path,
		qs: { include: 'draft' },
		itemIndex,
		what: `page ${pageId}`,
	});
	const changes = pageChanges(current, { content, publish, lists });
	if (Object.keys(changes).length === 0) return withResult(current, 'unchanged');
	const { body: page } = await apiRequest<IDataObject>(this, {
		method: 'PATCH',
		path,
		body: changes,
		itemIndex,
		what: `page ${pageId}`,
	});
	return withResult(page, 'updated');
}
