import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	SOURCE_FIRST_CHECK_SECONDS,
	SOURCE_MAX_TIME_LIMIT_MINUTES,
	SOURCE_TIME_LIMIT_MINUTES,
	waitSourcesReady,
} from '../../../shared/knowledgeHub/waitSources';
import type { SourceWaitSettings, WaitingSource } from '../../../shared/knowledgeHub/waitSources';
import { apiRequest, withIsNew } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { hasText } from '../../../shared/values';
import {
	forOperation,
	type ItemOutcome,
	type OperationModule,
} from '../../../shared/operations/operation';
import { createThenWaitAll } from '../../../shared/operations/listWait';
import { waiting, type WaitEnd } from '../../../shared/waitMany';
import { isToolContext } from '../../../shared/toolContext';
import { additionalFields, notice, optionsField } from '../fields';

/** The AI tool's variant is Off by default: MCP clients give up after about a minute. */
const waitUntilReady = (tool: boolean, fallback: 'off' | 'poll'): INodeProperties => ({
	displayName: 'Wait Until Ready',
	name: 'waitUntilReady',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { '@tool': [tool] } },
	options: [
		{
			name: 'Off',
			value: 'off',
			description:
				'Output the source as created (usually pending) and go on at once; its text is not there yet',
		},
		{
			name: 'By Polling',
			value: 'poll',
			description:
				'Read the source after 10 s, then with doubling pauses (up to 60 s) until its text is extracted; a failed extraction is an error',
		},
	],
	default: fallback,
	description:
		'Whether to wait until the text is extracted (status ready), so the next node can attach the source to a page with its text',
});

export const description = forOperation('knowledgeHubSource', 'createFromUrl', [
	notice(
		'dedupNotice',
		'A URL already in the workspace is not added twice: the existing source comes back unchanged, with "is_new" false',
	),
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
	waitUntilReady(false, 'poll'),
	waitUntilReady(true, 'off'),
	notice(
		'pollingNotice',
		'By Polling costs about 4 API calls for a source ready within a minute (the creation, reads at 10 s, 30 s and 70 s), at most 8 with the 5-minute limit. A list is created first, then read together, one request a round for all: 15 sources ready within a minute cost 18 calls.',
		{ waitUntilReady: ['poll'] },
	),
	additionalFields([
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
	]),
	optionsField({ displayOptions: { show: { waitUntilReady: ['poll'] } } }, [
		{
			displayName: 'First Check (Seconds)',
			name: 'firstCheckSeconds',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: SOURCE_FIRST_CHECK_SECONDS,
			description: 'Pause before the first status read; later pauses double, up to 60 seconds',
		},
		{
			displayName: 'Time Limit (Minutes)',
			// Not timeLimitMinutes: Scenario Job → Create has that name with another default, and n8n
			// carries a value across operations by name (docs/parameter-names.md).
			name: 'sourceTimeLimitMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: SOURCE_MAX_TIME_LIMIT_MINUTES },
			default: SOURCE_TIME_LIMIT_MINUTES,
			description:
				'How long to wait for the text, counted from the creation. Past it the item fails; extraction goes on.',
		},
	]),
]);

type WaitMode = 'off' | 'poll';

function readMode(ctx: IExecuteFunctions, itemIndex: number): WaitMode {
	const fallback = isToolContext(ctx) ? 'off' : 'poll';
	return ctx.getNodeParameter('waitUntilReady', itemIndex, fallback) === 'off' ? 'off' : 'poll';
}

/** The POST body, checked before any request. */
function buildBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const check = validator(ctx, itemIndex);
	const url = check.webUrl('URL', ctx.getNodeParameter('url', itemIndex, ''));
	const title = check.required('Title', ctx.getNodeParameter('title', itemIndex, ''));
	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = { type: 'url', title, url };
	if (hasText(additional.cover)) body.cover = additional.cover.trim();
	if (additional.folder_ids !== undefined) {
		const folderIds = check.uuidList('Folders', additional.folder_ids);
		if (folderIds.length > 0) body.folder_ids = folderIds;
	}
	return body;
}

function waitSettings(ctx: IExecuteFunctions, itemIndex: number): SourceWaitSettings {
	const check = validator(ctx, itemIndex);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const minutes = check.intRange(
		'Options → Time Limit (Minutes)',
		options.sourceTimeLimitMinutes ?? SOURCE_TIME_LIMIT_MINUTES,
		1,
		SOURCE_MAX_TIME_LIMIT_MINUTES,
	);
	const first = options.firstCheckSeconds ?? SOURCE_FIRST_CHECK_SECONDS;
	if (typeof first !== 'number' || !Number.isFinite(first) || first < 0)
		return check.fail(
			'Options → First Check (Seconds)',
			`must be a number of seconds from 0 up, got "${String(first)}"`,
		);
	return { firstDelayMs: first * 1000, timeLimitMs: minutes * 60_000, itemIndex };
}

async function createSource(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const response = await apiRequest<IDataObject>(ctx, {
		method: 'POST',
		path: '/knowledge-hub/sources',
		body,
		itemIndex,
	});
	// 201 = a new source; 200 = the URL was already in the workspace and that source came back.
	return withIsNew(response);
}

/** The waited source keeps is_new from its creation (a read does not say). */
function result(end: WaitEnd<IDataObject>, isNew: IDataObject[string]): IDataObject {
	if ('error' in end) throw end.error;
	return { ...end.value, is_new: isNew };
}

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const body = buildBody(this, itemIndex);
	const mode = readMode(this, itemIndex);
	const settings = mode === 'poll' ? waitSettings(this, itemIndex) : undefined;
	const source = await createSource(this, body, itemIndex);
	if (!settings) return source;
	const [end] = await waitSourcesReady(this, [waiting(source, settings)]);
	return result(end, source.is_new);
};

/** A list By Polling: every source created, then all read together, one list request a round. */
export async function executeAll(this: IExecuteFunctions): Promise<ItemOutcome[] | undefined> {
	return await createThenWaitAll<
		{ body: IDataObject; settings: SourceWaitSettings },
		WaitingSource
	>(this, {
		readMode,
		prepare: (ctx, itemIndex) => ({
			body: buildBody(ctx, itemIndex),
			settings: waitSettings(ctx, itemIndex),
		}),
		create: async (ctx, item, itemIndex) =>
			waiting(await createSource(ctx, item.body, itemIndex), item.settings),
		wait: waitSourcesReady,
		result: (_ctx, created, source) => result({ value: source }, created.value.is_new),
	});
}
