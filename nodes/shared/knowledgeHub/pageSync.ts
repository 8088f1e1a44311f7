import type { IDataObject } from 'n8n-workflow';

import type { TransportContext } from '../transport';
import { apiList } from '../transport';

/** What Create or Update did to a page; the output's `sync_result`. */
export type SyncResult = 'created' | 'updated' | 'unchanged';

/** The title as matched: surrounding whitespace ignored, case kept. */
export function titleKey(title: unknown): string {
	return typeof title === 'string' ? title.trim() : '';
}

/**
 * Live pages whose title is exactly `title` (see `titleKey`), optionally within one folder. The service's
 * title search is a case-insensitive substring match, so its rows are narrowed here; every page of
 * the search is read (usually one request of up to 100 rows).
 */
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
 * Markdown as compared: line endings (CRLF, CR, LF), whitespace at the end of each line and at the
 * end of the text do not count as a change. A Markdown hard line break (two spaces at a line's end)
 * added or removed alone therefore publishes nothing; with any other change the text is sent as given,
 * hard breaks included.
 */
export function normalText(text: string): string {
	return text
		.replace(/\r\n?/g, '\n')
		.replace(/[^\S\n]+$/gm, '')
		.replace(/\s+$/, '');
}

export function sameText(a: unknown, b: string): boolean {
	return typeof a === 'string' && normalText(a) === normalText(b);
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

function sameIds(current: unknown, wanted: string[]): boolean {
	const ids = Array.isArray(current)
		? current.map((entry) => String((entry as IDataObject)?.id ?? ''))
		: [];
	const have = new Set(ids);
	return have.size === new Set(wanted).size && wanted.every((id) => have.has(id));
}

/**
 * The PATCH body that brings `page` (a detail read with include=draft) to what is wanted, or {} when
 * it is there already. Publishing: the published body must equal the content (a different pending
 * draft is replaced without a new version). As a draft: the pending draft, else the published body.
 */
export function pageChanges(page: IDataObject, wanted: Wanted): IDataObject {
	const changes: IDataObject = {};
	const draft = (page.draft as IDataObject | null | undefined)?.content;
	const pending = typeof draft === 'string' ? draft : undefined;
	if (wanted.publish) {
		const published = page.status === 'published' && sameText(page.content, wanted.content);
		if (!published) {
			if (!sameText(pending, wanted.content)) changes.content = wanted.content;
			changes.status = 'published';
		} else if (pending !== undefined && !sameText(pending, wanted.content)) {
			changes.content = wanted.content;
		}
	} else if (!sameText(pending ?? page.content, wanted.content)) {
		changes.content = wanted.content;
	}
	for (const [name, field] of Object.entries(LIST_FIELDS)) {
		const ids = wanted.lists[name];
		if (Array.isArray(ids) && !sameIds(page[field], ids as string[])) changes[name] = ids;
	}
	return changes;
}
