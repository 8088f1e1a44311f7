import type { IDataObject } from 'n8n-workflow';

import type { ChangeKey, RecentKeys, SeenChanges } from './changes';
import type { Window } from './cursor';
import { inWindow } from './cursor';
import type { PageState } from './keys';
import { pageSeenKey, pageStateKey, pageVersionKey, sourceReadyKey } from './keys';
import type { Stamp } from './timestamps';
import { toStamp } from './timestamps';

/** The events, and what counts as each: docs/trigger-changes.md. */
export const EVENTS = {
	pageCreated: 'Page Created',
	pageUpdated: 'Page Updated',
	pagePublished: 'Page Published',
	sourceReady: 'Source Ready',
} as const;

export type TriggerEvent = keyof typeof EVENTS;
export type PageEvent = Exclude<TriggerEvent, 'sourceReady'>;

export const PAGE_EVENTS: readonly PageEvent[] = ['pageCreated', 'pageUpdated', 'pagePublished'];

/** One event found by a poll, stamped with the service time of the change, for ordering. */
export interface FoundEvent {
	event: TriggerEvent;
	stamp: Stamp;
	kind: 'page' | 'source';
	row: IDataObject;
}

export interface PageStamps extends PageState {
	created: Stamp;
}

/** The fields the trigger reasons on, or undefined when a row lacks them (it is then skipped). */
export function pageStamps(row: IDataObject): PageStamps | undefined {
	const created = toStamp(row.created_at);
	const updated = toStamp(row.updated_at);
	if (typeof row.id !== 'string' || created === undefined || updated === undefined)
		return undefined;
	return {
		id: row.id,
		created,
		updated,
		title: typeof row.title === 'string' ? row.title : '',
		status: typeof row.status === 'string' ? row.status : '',
		version: typeof row.version === 'number' ? row.version : null,
		published: toStamp(row.published_at),
	};
}

/** The events one row brings and the keys to remember (none outside the window). */
export function pageChanges(
	page: PageStamps,
	seen: SeenChanges,
	window: Window,
	filtered = false,
	known?: RecentKeys,
): { events: PageEvent[]; keys?: Array<[ChangeKey, Stamp]> } {
	if (!inWindow(window, page.updated)) return { events: [] };
	// `known` (under filters) remembers pages and versions long after `seen` forgets them.
	const firstSight = !seen.has(pageSeenKey(page.id)) && !known?.has(pageSeenKey(page.id));
	const stateKey = pageStateKey(page);
	const versionKey = page.version === null ? undefined : pageVersionKey(page.id, page.version);
	const events: PageEvent[] = [];
	// Under filters a first sight may be the page coming to match: not a creation.
	if (firstSight && inWindow(window, page.created) && !(filtered && page.updated !== page.created))
		events.push('pageCreated');
	// A new state is an update unless it is the page's creation seen for the first time.
	if (!seen.has(stateKey) && (!firstSight || page.updated !== page.created))
		events.push('pageUpdated');
	if (
		versionKey !== undefined &&
		page.published !== undefined &&
		inWindow(window, page.published) &&
		!seen.has(versionKey) &&
		!known?.has(versionKey) &&
		!(filtered && firstSight && page.published !== page.updated)
	) {
		events.push('pagePublished');
	}
	return { events, keys: pageKeys(page) };
}

/** What a page row leaves in `known` (under filters): the page, and its published version. */
export function pageKnownKeys(page: PageStamps): ChangeKey[] {
	const keys = [pageSeenKey(page.id)];
	if (page.version !== null) keys.push(pageVersionKey(page.id, page.version));
	return keys;
}

/** The keys a page row leaves in the seen set. */
export function pageKeys(page: PageStamps): Array<[ChangeKey, Stamp]> {
	const keys: Array<[ChangeKey, Stamp]> = [
		[pageSeenKey(page.id), page.updated],
		[pageStateKey(page), page.updated],
	];
	if (page.version !== null)
		keys.push([pageVersionKey(page.id, page.version), page.published ?? page.updated]);
	return keys;
}

/** When a source became ready: processed_at, or updated_at for rows that lack it. */
export function readyStamp(row: IDataObject): Stamp | undefined {
	if (row.status !== 'ready' || typeof row.id !== 'string') return undefined;
	return toStamp(row.processed_at) ?? toStamp(row.updated_at);
}

/** Source Ready: a ready key (source and time) not seen yet, inside the window. */
export function sourceIsNew(id: string, stamp: Stamp, seen: SeenChanges, window: Window): boolean {
	return inWindow(window, stamp) && !seen.has(sourceReadyKey(id, stamp));
}
