import type { IDataObject } from 'n8n-workflow';

import type { ChangeKey, RecentKeys, SeenChanges } from './changes';
import type { Window } from './cursor';
import { inWindow } from './cursor';
import type { PageState } from './keys';
import { pageSeenKey, pageStateKey, pageVersionKey, sourceReadyKey } from './keys';
import type { Stamp } from './timestamps';
import { toStamp } from './timestamps';

/**
 * What counts as "a change", per event. The list endpoint shows each page's current state only, so a
 * change is defined on what a poll can observe (several edits between two polls are one observed
 * state):
 * - Page Created: a page whose created_at falls after the trigger's starting point, seen for the first
 *   time (once per page).
 * - Page Updated: a new state of a page: once per page, updated_at, title, status, version and
 *   published_at (keys.ts; a publication is an update too). A page's first state seen is no update
 *   when it is its creation (updated_at equal to created_at); any later new state of the page is one,
 *   whatever its timestamp says.
 *   The list shows no body or draft, so two content-only edits stamped with the same timestamp are
 *   one change: the service's list cannot tell them apart.
 * - Page Published: a new published version whose published_at falls after the starting point (once
 *   per page and version), not just a newer updated_at.
 * - Source Ready: a source in status ready whose processed_at falls after the starting point (once per
 *   source and processed_at).
 * None of these compares a timestamp with the last one seen: see changes.ts.
 *
 * With page filters, the list shows only matching pages, so a page may first be seen because it came to
 * match (renamed into Title Contains, moved into the folder...). Rule, the same at any timing: a page
 * seen for the first time fires Page Created only if it was never changed since its creation (it
 * matched when created), and Page Published only if the publication is its latest change (it matched
 * when published); otherwise its first sight is a Page Updated. Later changes follow the rules above.
 * "Seen" means seen since activation: the trigger remembers the last RECENT_MAX_KEYS pages it saw
 * (changes.ts), however long ago, so a page seen as a draft and then published and edited before the
 * next read still sends Page Published.
 */
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

/**
 * The events one list row brings, given the changes already seen, and the keys to remember (keys.ts).
 * Rows outside the window bring nothing and change nothing (`keys` undefined). Timestamps are never
 * compared with the last one seen for the page: a state stamped earlier than it (a service clock that
 * stepped back) is still a new state.
 */
export function pageChanges(
	page: PageStamps,
	seen: SeenChanges,
	window: Window,
	filtered = false,
	known?: RecentKeys,
): { events: PageEvent[]; keys?: Array<[ChangeKey, Stamp]> } {
	if (!inWindow(window, page.updated)) return { events: [] };
	// `seen` forgets a page once its last sighting leaves the overlap window; `known` (under filters)
	// remembers the pages and published versions seen since activation much longer, so a page seen
	// before is not taken for one coming to match, nor a version seen before for a new one.
	const firstSight = !seen.has(pageSeenKey(page.id)) && !known?.has(pageSeenKey(page.id));
	const stateKey = pageStateKey(page);
	const versionKey = page.version === null ? undefined : pageVersionKey(page.id, page.version);
	const events: PageEvent[] = [];
	// Under filters a first sight may be the page coming to match: see the rule above.
	if (firstSight && inWindow(window, page.created) && !(filtered && page.updated !== page.created))
		events.push('pageCreated');
	// A new state is an update unless it is the page's creation seen for the first time. Timestamps
	// alone cannot say: after a clock step an edit may carry its page's creation second, or earlier.
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
