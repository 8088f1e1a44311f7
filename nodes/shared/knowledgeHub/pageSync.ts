import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { TransportContext } from '../transport';
import { apiList } from '../transport';

/** What Create or Update did to a page; the output's `sync_result`. */
export type SyncResult = 'created' | 'updated' | 'unchanged';

/** The title as matched: surrounding whitespace ignored, case kept. */
export function titleKey(title: unknown): string {
	return typeof title === 'string' ? title.trim() : '';
}

/** Live pages titled exactly `title` (the service's search matches substrings, in any case). */
export async function findPagesByTitle(
	ctx: TransportContext,
	title: string,
	folderId: string | undefined,
	itemIndex: number,
): Promise<IDataObject[]> {
	const qs: IDataObject = { query: title };
	if (folderId) qs.folder_id = folderId;
	const rows = await apiList<IDataObject>(ctx, '/knowledge-hub/pages', qs, {
		returnAll: true,
		itemIndex,
	});
	const wanted = titleKey(title);
	return rows.filter((row) => titleKey(row.title) === wanted);
}

/**
 * Markdown as compared: line endings and trailing whitespace do not count, so a hard line break added
 * alone publishes nothing; with any other change the text is sent as given.
 */
function normalText(text: string): string {
	return text
		.replace(/\r\n?/g, '\n')
		.replace(/[^\S\n]+$/gm, '')
		.replace(/\s+$/, '');
}

/** A short digest (72 bits by default): equal digests stand for equal inputs. */
export const digest = (text: string, chars = 12) =>
	createHash('sha256').update(text).digest('base64url').slice(0, chars);

function textDigest(text: unknown): string | undefined {
	return typeof text === 'string' ? digest(normalText(text)) : undefined;
}

/** The digest of a list's set of IDs (order and repeats do not count). */
function idsDigest(ids: string[]): string {
	return digest(JSON.stringify([...new Set(ids)].sort()));
}

export interface Wanted {
	content: string;
	publish: boolean;
	/** folder_ids, source_ids, skill_ids as given (only those the user set). */
	lists: IDataObject;
}

/** The page detail's field holding each ID list's objects. */
const LIST_FIELDS: Record<string, string> = {
	folder_ids: 'folders',
	source_ids: 'sources',
	skill_ids: 'skills',
};

export const idsOf = (list: unknown): string[] =>
	Array.isArray(list) ? list.map((entry) => String((entry as IDataObject)?.id ?? '')) : [];

/** A page as a sync compares it, in digests: small enough to remember between runs (syncRun.ts). */
export interface PageState {
	status: unknown;
	/** The published body; undefined when unpublished. */
	content?: string;
	/** The pending draft (include=draft); undefined when none is shown. */
	draft?: string;
	/** folder_ids, source_ids, skill_ids → the page's IDs in that list. */
	lists: Record<string, string>;
}

/** A page as the service answered it (a detail with include=draft, or a list row). */
export function pageState(page: IDataObject): PageState {
	return {
		status: page.status,
		content: textDigest(page.content),
		draft: textDigest((page.draft as IDataObject | null | undefined)?.content),
		lists: Object.fromEntries(
			Object.entries(LIST_FIELDS).map(([name, field]) => [name, idsDigest(idsOf(page[field]))]),
		),
	};
}

/**
 * The PATCH body that brings a page to what is wanted, or {}. Publishing: the published body must be
 * the content (a differing draft is replaced). As a draft: the pending draft, else the published body.
 */
export function stateChanges(state: PageState, wanted: Wanted): IDataObject {
	const changes: IDataObject = {};
	const want = textDigest(wanted.content);
	const pending = state.draft;
	if (wanted.publish) {
		const published = state.status === 'published' && state.content === want;
		if (pending !== want && (!published || pending !== undefined)) changes.content = wanted.content;
		if (!published) changes.status = 'published';
	} else if ((pending ?? state.content) !== want) {
		changes.content = wanted.content;
	}
	for (const name of Object.keys(LIST_FIELDS)) {
		const ids = wanted.lists[name];
		if (Array.isArray(ids) && state.lists[name] !== idsDigest((ids as unknown[]).map(String)))
			changes[name] = ids;
	}
	return changes;
}

export function pageChanges(page: IDataObject, wanted: Wanted): IDataObject {
	return stateChanges(pageState(page), wanted);
}
