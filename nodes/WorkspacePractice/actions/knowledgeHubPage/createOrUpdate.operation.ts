import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionalUuid } from '../../../shared/fields/locator';
import {
	findPagesByTitle,
	pageChanges,
	stateChanges,
	titleKey,
} from '../../../shared/knowledgeHub/pageSync';
import type { SyncResult, Wanted } from '../../../shared/knowledgeHub/pageSync';
import {
	folderPages,
	pageAsLastSynced,
	rememberSync,
	syncOncePerTitle,
} from '../../../shared/knowledgeHub/syncRun';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { apiRequest } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { itemRef } from '../../../shared/values';
import { notice, optionsField } from '../fields';
import { folderLocator } from '../knowledgeHubFolder/folder.locator';
import {
	addPageLists,
	contentField,
	contentFromFields,
	pageListFields,
	pageVisibilityOptions,
	readPageContent,
} from './page.fields';

export const description = forOperation('knowledgeHubPage', 'createOrUpdate', [
	notice(
		'syncNotice',
		"Finds the page by its exact title (case-sensitive; spaces around it ignored); items sharing a title give one page holding the last of them. API calls: with Within Folder and several items, the folder's page list once a run (1 per 100 pages), else a title search per item; then per page 1 read, none when the workflow runs active and the page is as this node last left it; +1 to create or change it. An unchanged page gets no new draft or version.",
	),
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
	...contentFromFields(
		contentField(
			'The Markdown body the page should have. Compared with the page first (line endings and spaces at line ends ignored): when equal, nothing is written.',
		),
	),
	{
		displayName: 'Publish',
		name: 'publish',
		type: 'boolean',
		default: true,
		description:
			'Whether to publish the content as a new version when the page is created or changed. Off keeps it as a draft to review, compared with the pending draft.',
	},
	optionsField(
		(
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
				{
					displayName: 'Allow Empty File',
					name: 'allowEmptyFile',
					type: 'boolean',
					default: false,
					displayOptions: { show: { '/contentFrom': ['binary'] } },
					description:
						'Whether an empty file (or one of only whitespace) may become the page text. Off: it is refused before any request, naming the file.',
				},
				folderLocator({
					displayName: 'Within Folder',
					name: 'withinFolder',
					required: false,
					description:
						'Look for the title only among pages in this folder, and create a missing page in it. Pages of the same title elsewhere are left alone.',
				}),
			] as INodeProperties[]
		).sort((a, b) => a.displayName.localeCompare(b.displayName)),
	),
]);

function withResult(page: IDataObject, result: SyncResult): IDataObject {
	return { ...page, sync_result: result };
}

const EMPTY_REFUSAL =
	'An empty file would replace the page text: check the file, or turn on Options → Allow Empty File.';

/** Pages titled `title`: with a folder and several items, from its page list read once a run. */
async function pagesTitled(
	ctx: IExecuteFunctions,
	title: string,
	folderId: string | undefined,
	itemIndex: number,
): Promise<IDataObject[]> {
	if (folderId && ctx.getInputData().length > 1)
		return (await folderPages(ctx, folderId, itemIndex)).get(titleKey(title)) ?? [];
	return await findPagesByTitle(ctx, title, folderId, itemIndex);
}

/** The item's title and Within Folder, checked. */
function slotOf(ctx: IExecuteFunctions, itemIndex: number) {
	const check = validator(ctx, itemIndex);
	const title = check.required('Title', ctx.getNodeParameter('title', itemIndex, '')).trim();
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const folderId = optionalUuid(check, 'Options → Within Folder', options.withinFolder);
	return { title, folderId };
}

/** Items sharing a folder and title sync once, from the last; the others come out `unchanged`. */
export const execute: OperationModule['execute'] = async function (itemIndex) {
	const { title, folderId } = slotOf(this, itemIndex);
	const { page, mine } = await syncOncePerTitle(
		this,
		itemIndex,
		folderId,
		title,
		(index) => slotOf(this, index),
		async (last) => await sync(this, last, title, folderId),
	);
	return mine ? page : withResult(page, 'unchanged');
};

async function sync(
	ctx: IExecuteFunctions,
	itemIndex: number,
	title: string,
	folderId: string | undefined,
): Promise<IDataObject> {
	const check = validator(ctx, itemIndex);
	// The page as the service answered it, remembered for the next run.
	const settled = (page: IDataObject, result: SyncResult) => {
		rememberSync(ctx, folderId, title, page);
		return withResult(page, result);
	};
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const content =
		(await readPageContent(
			ctx,
			itemIndex,
			ctx.getNodeParameter('content', itemIndex, ''),
			options.allowEmptyFile === true ? undefined : EMPTY_REFUSAL,
		)) ?? '';
	const publish = ctx.getNodeParameter('publish', itemIndex, true) as boolean;
	const lists: IDataObject = {};
	addPageLists(lists, options, check);
	// The page must stay in the folder it is looked for in, or the next run would not find it.
	const folderIds = lists.folder_ids as string[] | undefined;
	if (folderId && folderIds && !folderIds.includes(folderId))
		lists.folder_ids = [...folderIds, folderId];
	const wanted: Wanted = { content, publish, lists };

	const matches = await pagesTitled(ctx, title, folderId, itemIndex);
	if (matches.length > 1) {
		const where = folderId ? ` in folder ${folderId}` : '';
		throw new NodeOperationError(
			ctx.getNode(),
			`Title: ${matches.length} pages are titled "${title}"${where} (IDs ${matches.map((p) => String(p.id)).join(', ')})`,
			{
				itemIndex,
				description: `${itemRef(itemIndex)}: Create or Update needs exactly one page per title. Archive or rename the extra pages (Knowledge Hub Page → Archive or Update), or set Options → Within Folder to tell them apart. Nothing was written.`,
			},
		);
	}

	if (matches.length === 0) {
		const body: IDataObject = { title, content, status: publish ? 'published' : 'draft' };
		if (options.visibility) body.visibility = options.visibility;
		Object.assign(body, lists);
		if (folderId && body.folder_ids === undefined) body.folder_ids = [folderId];
		const { body: page } = await apiRequest<IDataObject>(ctx, {
			method: 'POST',
			path: '/knowledge-hub/pages',
			body,
			itemIndex,
		});
		return settled(page, 'created');
	}

	const pageId = String(matches[0].id);
	const path = `/knowledge-hub/pages/${encodeURIComponent(pageId)}`;
	// The page has not moved since this node last wrote or read it: compare with what it remembers
	// of it, instead of reading it (nothing to send when the file did not change either).
	const known = pageAsLastSynced(ctx, folderId, title, matches[0]);
	let changes: IDataObject;
	if (known) {
		changes = stateChanges(known, wanted);
		if (Object.keys(changes).length === 0) return withResult(matches[0], 'unchanged');
		// A draft saved by someone else in the second of this node's last write leaves the row as it
		// was: publish the file's text, never a pending draft this node has not read.
		if (changes.status === 'published') changes.content = wanted.content;
	} else {
		const { body: current } = await apiRequest<IDataObject>(ctx, {
			method: 'GET',
			path,
			qs: { include: 'draft' },
			itemIndex,
			what: `page ${pageId}`,
		});
		changes = pageChanges(current, wanted);
		if (Object.keys(changes).length === 0) return settled(current, 'unchanged');
	}
	const { body: page } = await apiRequest<IDataObject>(ctx, {
		method: 'PATCH',
		path,
		body: changes,
		itemIndex,
		what: `page ${pageId}`,
	});
	return settled(page, 'updated');
}
