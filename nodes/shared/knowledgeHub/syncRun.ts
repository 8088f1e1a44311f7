import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiList, sharedInRun } from '../transport';
import { digest, idsOf, pageState, titleKey } from './pageSync';
import type { PageState } from './pageSync';

/**
 * What one run of Knowledge Hub Page → Create or Update shares between its items (run.ts); across runs
 * only the memory lasts, in static data (n8n saves it after an active workflow's runs, not manual ones).
 */
interface SyncRun {
	/** Folder and title → the last input item holding them (read at the first item to ask). */
	lastItems?: Map<string, number>;
	/** Folder and title → the run's one sync of that page. */
	syncs: Map<string, Promise<IDataObject>>;
	folders: Map<string, Promise<Map<string, IDataObject[]>>>;
	memory?: Record<string, string>;
}

function syncRunOf(ctx: IExecuteFunctions): SyncRun {
	return sharedInRun<SyncRun>(ctx, 'knowledgeHub.pageSync', () => ({
		syncs: new Map(),
		folders: new Map(),
	}));
}

const titleSlot = (folderId: string | undefined, title: string) =>
	`${folderId ?? ''}\n${titleKey(title)}`;

/** Where an item looks for its page: its folder (if any) and its title; thrown when unreadable. */
export type SlotOf = (itemIndex: number) => { folderId: string | undefined; title: string };

/**
 * Items sharing a folder and title come to one page holding the last of them: the first to start syncs
 * it (whatever Items in Parallel), so a re-run finds it as left. `mine`: it holds this item's file.
 */
export async function syncOncePerTitle(
	ctx: IExecuteFunctions,
	itemIndex: number,
	folderId: string | undefined,
	title: string,
	slotOf: SlotOf,
	sync: (lastIndex: number) => Promise<IDataObject>,
): Promise<{ page: IDataObject; mine: boolean }> {
	const run = syncRunOf(ctx);
	if (!run.lastItems) {
		run.lastItems = new Map();
		for (const other of ctx.getInputData().keys()) {
			try {
				const { folderId: folder, title: named } = slotOf(other);
				run.lastItems.set(titleSlot(folder, named), other);
			} catch {
				// Its own execute reports it.
			}
		}
	}
	const slot = titleSlot(folderId, title);
	const last = run.lastItems.get(slot) ?? itemIndex;
	const once = run.syncs.get(slot) ?? sync(last);
	run.syncs.set(slot, once);
	return { page: await once, mine: last === itemIndex };
}

/** The folder's live pages by title, listed once a run however many items ask. */
export async function folderPages(
	ctx: IExecuteFunctions,
	folderId: string,
	itemIndex: number,
): Promise<Map<string, IDataObject[]>> {
	const { folders } = syncRunOf(ctx);
	const listing =
		folders.get(folderId) ??
		apiList<IDataObject>(
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
	folders.set(folderId, listing);
	return await listing;
}

/** Titles remembered per node; past it the oldest are forgotten (they cost a read on their next run). */
export const MEMORY_SIZE = 2_000;
const MEMORY_KEY = 'pageSync';
/** Marks this format of a remembered page (frozen from 0.1.0); an entry without it is not used. */
const FORMAT = 'v2';

/** A page as a list row shows it: equal when the page did not move. */
function rowFingerprint(page: IDataObject): string {
	return digest(
		JSON.stringify([
			page.id,
			page.version ?? null,
			page.updated_at ?? null,
			page.status ?? null,
			page.source_count ?? null,
			idsOf(page.folders).sort(),
			idsOf(page.skills).sort(),
		]),
	);
}

function memoryOf(ctx: IExecuteFunctions): Record<string, string> | undefined {
	const run = syncRunOf(ctx);
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

// 16 characters: an entry of another format is replaced, not left beside.
const memoryKey = (folderId: string | undefined, title: string) =>
	digest(titleSlot(folderId, title), 16);

/** The page (a list row) as this node last left it, when it has not moved since; else it is read. */
export function pageAsLastSynced(
	ctx: IExecuteFunctions,
	folderId: string | undefined,
	title: string,
	row: IDataObject,
): PageState | undefined {
	const entry = memoryOf(ctx)?.[memoryKey(folderId, title)];
	const parts = typeof entry === 'string' ? entry.split('.') : [];
	if (parts.length !== 5 || parts[0] !== FORMAT || parts[1] !== rowFingerprint(row))
		return undefined;
	const [, , content, draft, sources] = parts;
	const state = pageState(row);
	return {
		status: state.status,
		content: content || undefined,
		draft: draft || undefined,
		lists: { ...state.lists, source_ids: sources },
	};
}

/** Remembers a detail with draft and sources for the next run; a page without them is forgotten. */
export function rememberSync(
	ctx: IExecuteFunctions,
	folderId: string | undefined,
	title: string,
	page: IDataObject,
): void {
	const memory = memoryOf(ctx);
	if (!memory) return;
	const key = memoryKey(folderId, title);
	delete memory[key];
	if ('draft' in page && Array.isArray(page.sources)) {
		const state = pageState(page);
		memory[key] = [
			FORMAT,
			rowFingerprint(page),
			state.content ?? '',
			state.draft ?? '',
			state.lists.source_ids,
		].join('.');
	}
	const keys = Object.keys(memory);
	for (const old of keys.slice(0, Math.max(0, keys.length - MEMORY_SIZE))) delete memory[old];
	// Set at the top level, so n8n sees the node's static data changed and saves it after the run.
	ctx.getWorkflowStaticData('node')[MEMORY_KEY] = memory;
}
