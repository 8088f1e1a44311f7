import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiList } from '../transport';
import { normalText, titleKey } from './pageSync';
import type { Wanted } from './pageSync';

/**
 * What one run of Knowledge Hub Page → Create or Update shares between its items: the turn of each
 * title (items sharing a folder and title are settled in input order, whatever Items in Parallel),
 * each folder's page list (read once a run) and the memory of what was synced. Kept per run (keyed by
 * the run's context object, so it goes with the run), never across runs: the memory across runs lives
 * in the node's static data, which n8n saves after runs of an active workflow, not after manual ones.
 */
interface SyncRun {
	turns: Map<string, Promise<unknown>>;
	folders: Map<string, Promise<Map<string, IDataObject[]>>>;
	memory?: Record<string, string>;
}

const runs = new WeakMap<object, SyncRun>();

function runOf(ctx: IExecuteFunctions): SyncRun {
	let run = runs.get(ctx);
	if (!run) {
		run = { turns: new Map(), folders: new Map() };
		runs.set(ctx, run);
	}
	return run;
}

const titleSlot = (folderId: string | undefined, title: string) =>
	`${folderId ?? ''}\n${titleKey(title)}`;

/**
 * Runs `work` after every earlier item of this run with the same folder and title has settled (its
 * page created or updated, or its error). Call it before the item's first await: items start in
 * input order, so their turns are queued in input order.
 */
export async function inTitleOrder<T>(
	ctx: IExecuteFunctions,
	folderId: string | undefined,
	title: string,
	work: () => Promise<T>,
): Promise<T> {
	const run = runOf(ctx);
	const slot = titleSlot(folderId, title);
	const before = run.turns.get(slot) ?? Promise.resolve();
	const mine = before.then(work, work);
	run.turns.set(
		slot,
		mine.catch(() => undefined),
	);
	return await mine;
}

/**
 * The folder's live pages by title, listed once for the whole run (100 a request) however many items
 * ask; the items of the run keep it current (`notePage`).
 */
export async function folderPages(
	ctx: IExecuteFunctions,
	folderId: string,
	itemIndex: number,
): Promise<Map<string, IDataObject[]>> {
	const run = runOf(ctx);
	let listing = run.folders.get(folderId);
	if (!listing) {
		listing = apiList<IDataObject>(
			ctx,
			'/knowledge-hub/pages',
			{ folder_id: folderId },
			{ returnAll: true, itemIndex },
		).then((rows) => {
			const byTitle = new Map<string, IDataObject[]>();
			for (const row of rows) {
				const key = titleKey(row.title);
				byTitle.set(key, [...(byTitle.get(key) ?? []), row]);
			}
			return byTitle;
		});
		run.folders.set(folderId, listing);
	}
	return await listing;
}

/** A page this run created or changed, so later items of the run find it as it is now. */
export async function notePage(
	ctx: IExecuteFunctions,
	folderId: string | undefined,
	page: IDataObject,
): Promise<void> {
	const listing = folderId ? runOf(ctx).folders.get(folderId) : undefined;
	if (!listing) return;
	const byTitle = await listing;
	const key = titleKey(page.title);
	const others = (byTitle.get(key) ?? []).filter((row) => row.id !== page.id);
	byTitle.set(key, [...others, page]);
}

/** Titles remembered per node; past it the oldest are forgotten (they cost a read on their next run). */
export const MEMORY_SIZE = 2_000;
const MEMORY_KEY = 'pageSync';

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);

const ids = (list: unknown) =>
	Array.isArray(list) ? list.map((entry) => String((entry as IDataObject)?.id ?? '')).sort() : [];

/**
 * A page as a list row shows it (published version, last update, status, folders, skills, number of
 * sources) with the wanted state, in one fingerprint: equal when neither the page nor the file moved.
 */
function fingerprint(page: IDataObject, wanted: Wanted): string {
	return digest(
		JSON.stringify([
			page.id,
			page.version ?? null,
			page.updated_at ?? null,
			page.status ?? null,
			page.source_count ?? null,
			ids(page.folders),
			ids(page.skills),
			normalText(wanted.content),
			wanted.publish,
			wanted.lists,
		]),
	);
}

function memoryOf(ctx: IExecuteFunctions): Record<string, string> | undefined {
	const run = runOf(ctx);
	if (!run.memory) {
		let stored: unknown;
		try {
			stored = ctx.getWorkflowStaticData('node')[MEMORY_KEY];
		} catch {
			// A context without static data (e.g. an AI tool call) syncs without memory.
			return undefined;
		}
		run.memory =
			stored && typeof stored === 'object' ? { ...(stored as Record<string, string>) } : {};
	}
	return run.memory;
}

/** Whether the page (a list row) and the wanted state are as this node last synced them. */
export function unchangedSinceLastSync(
	ctx: IExecuteFunctions,
	folderId: string | undefined,
	title: string,
	page: IDataObject,
	wanted: Wanted,
): boolean {
	const memory = memoryOf(ctx);
	return memory?.[digest(titleSlot(folderId, title))] === fingerprint(page, wanted);
}

/** Remembers that `page` (as the service answered) holds the wanted state. */
export function rememberSync(
	ctx: IExecuteFunctions,
	folderId: string | undefined,
	title: string,
	page: IDataObject,
	wanted: Wanted,
): void {
	const memory = memoryOf(ctx);
	if (!memory) return;
	const key = digest(titleSlot(folderId, title));
	delete memory[key];
	memory[key] = fingerprint(page, wanted);
	const keys = Object.keys(memory);
	for (const old of keys.slice(0, Math.max(0, keys.length - MEMORY_SIZE))) delete memory[old];
	// Set at the top level, so n8n sees the node's static data changed and saves it after the run.
	ctx.getWorkflowStaticData('node')[MEMORY_KEY] = memory;
}
