import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiListPage, apiRequest, MAX_PAGE_SIZE } from '../transport';
import { waitMany } from '../waitMany';
import type { WaitEnd, Waiting, WaitKind, WaitSettings } from '../waitMany';

/** Extraction takes seconds to a minute: one ready in a minute costs 4 calls, 15 at once 18. */
export const SOURCE_FIRST_CHECK_SECONDS = 10;
const SOURCE_POLL_CAP_MS = 60_000;
export const SOURCE_TIME_LIMIT_MINUTES = 5;
export const SOURCE_MAX_TIME_LIMIT_MINUTES = 60;

export type SourceWaitSettings = WaitSettings;

function sourceName(source: IDataObject): string {
	return `Source "${String(source.title ?? '')}" (${String(source.id)})`;
}

/** A ready source, or the error a failed one becomes: it names the source and says what to do. */
export function settleSource(
	ctx: IExecuteFunctions,
	source: IDataObject,
	itemIndex: number,
): IDataObject {
	if (source.status !== 'failed') return source;
	const url = typeof source.external_url === 'string' ? ` from ${source.external_url}` : '';
	throw new NodeOperationError(
		ctx.getNode(),
		`${sourceName(source)}: text extraction failed${url}`,
		{
			itemIndex,
			description: `The service could not extract text from this address. Check that it is public and shows the text without a login, then archive this source (Knowledge Hub Source → Archive) and create it again: until it is archived, the same URL returns this failed source.`,
		},
	);
}

function timeLimitError(
	ctx: IExecuteFunctions,
	source: IDataObject,
	settings: SourceWaitSettings,
): NodeOperationError {
	const minutes = Math.round((settings.timeLimitMs / 60_000) * 100) / 100;
	return new NodeOperationError(
		ctx.getNode(),
		`${sourceName(source)} was not ready within ${minutes} minute(s); its last status was "${String(source.status)}"`,
		{
			itemIndex: settings.itemIndex,
			description:
				'Extraction goes on on the service. Raise Options → Time Limit (Minutes), or read the source later with Knowledge Hub Source → Get.',
		},
	);
}

export type WaitingSource = Waiting<IDataObject>;

/** The folder every source is in, if they share one: the list read is then narrowed to it. */
function sharedFolder(sources: IDataObject[]): string | undefined {
	const folderIds = (source: IDataObject) =>
		Array.isArray(source.folders)
			? source.folders.map((folder) => String((folder as IDataObject)?.id ?? ''))
			: [];
	const [first, ...rest] = sources.map(folderIds);
	return first?.find((id) => id !== '' && rest.every((ids) => ids.includes(id)));
}

/** The newest 100 sources (new ones lead), in their shared folder if any; one missing is read alone. */
async function readSourcesTogether(
	ctx: IExecuteFunctions,
	pending: WaitingSource[],
): Promise<Array<IDataObject | undefined>> {
	const qs: IDataObject = {};
	const folderId = sharedFolder(pending.map((waiting) => waiting.value));
	if (folderId) qs.folder_id = folderId;
	const { data } = await apiListPage<IDataObject>(
		ctx,
		'/knowledge-hub/sources',
		qs,
		1,
		MAX_PAGE_SIZE,
		pending[0].settings.itemIndex,
	);
	const byId = new Map(data.map((row) => [String(row.id), row]));
	return pending.map((waiting) => byId.get(String(waiting.value.id)));
}

async function readSource(ctx: IExecuteFunctions, waiting: WaitingSource): Promise<IDataObject> {
	const id = String(waiting.value.id);
	const { body } = await apiRequest<IDataObject>(ctx, {
		method: 'GET',
		path: `/knowledge-hub/sources/${encodeURIComponent(id)}`,
		itemIndex: waiting.settings.itemIndex,
		what: `source ${id}`,
	});
	return body;
}

/** Waits on many sources in one loop, pending ones read in one list request; ends in given order. */
export async function waitSourcesReady(
	ctx: IExecuteFunctions,
	sources: WaitingSource[],
): Promise<Array<WaitEnd<IDataObject>>> {
	const kind: WaitKind<IDataObject, WaitingSource> = {
		isDone: (source) => source.status === 'ready' || source.status === 'failed',
		finish: (waiting, source) => settleSource(ctx, source, waiting.settings.itemIndex),
		atDeadline: async (waiting, source) => {
			throw timeLimitError(ctx, source, waiting.settings);
		},
		nextDelay: (previous) => Math.min(Math.max(previous, 1) * 2, SOURCE_POLL_CAP_MS),
		readOne: async (waiting) => await readSource(ctx, waiting),
		readTogether: async (pending) => await readSourcesTogether(ctx, pending),
	};
	return await waitMany(kind, sources);
}
