import type { IDataObject } from 'n8n-workflow';

import type { PageSeen, SourceSeen, Window } from './cursor';
import { inWindow } from './cursor';
import type { Stamp } from './timestamps';
import { maxStamp, toStamp } from './timestamps';

/**
 * What counts as "a change", per event. The list endpoint shows each page's current state only, so a
 * change is defined on what a poll can observe (several edits between two polls are one observed
 * state):
 * - Page Created: a page whose created_at falls after the trigger's starting point, seen for the first
 *   time (once per page).
 * - Page Updated: a new updated_at value of a page, later than its created_at (once per page and
 *   updated_at; a publication is an update too).
 * - Page Published: a new published version: the page's version differs from the one last seen and its
 *   published_at falls after the starting point (once per page and version), not just a newer
 *   updated_at.
 * - Source Ready: a source in status ready whose processed_at falls after the starting point (once per
 *   source and processed_at).
 * Two changes of one page within the same timestamp are one change: the service cannot tell them apart.
 *
 * With page filters, the list shows only matching pages, so a page may first be seen because it came to
 * match (renamed into Title Contains, moved into the folder...). Rule, the same at any timing: a page
 * seen for the first time fires Page Created only if it was never changed since its creation (it
 * matched when created), and Page Published only if the publication is its latest change (it matched
 * when published); otherwise its first sight is a Page Updated. Later changes follow the rules above.
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

export interface PageStamps {
	id: string;
	created: Stamp;
	updated: Stamp;
	published?: Stamp;
	version: number | null;
}

/** The fields the trigger reasons on, or undefined when a row lacks them (it is then skipped). */
export function pageStamps(row: IDataObject): PageStamps | undefined {
	const created = toStamp(row.created_at);
	const updated = toStamp(row.updated_at);
	if (typeof row.id !== 'string' || created === undefined || updated === undefined)
		return undefined;
	const version = typeof row.version === 'number' ? row.version : null;
	return { id: row.id, created, updated, published: toStamp(row.published_at), version };
}

/**
 * The events one list row brings, given what was seen of that page, and the entry to remember. Rows
 * outside the window bring nothing and change nothing.
 */
export function pageChanges(
	page: PageStamps,
	seen: PageSeen,
	window: Window,
	filtered = false,
): { events: PageEvent[]; entry?: [Stamp, number | null] } {
	if (!inWindow(window, page.updated)) return { events: [] };
	const before = seen[page.id];
	if (before && page.updated < before[0]) return { events: [] };
	const events: PageEvent[] = [];
	// Under filters a first sight may be the page coming to match: see the rule above.
	const firstSight = !before && filtered;
	if (!before && inWindow(window, page.created) && !(firstSight && page.updated !== page.created))
		events.push('pageCreated');
	if (page.updated > page.created && (!before || page.updated > before[0]))
		events.push('pageUpdated');
	if (
		page.version !== null &&
		page.published !== undefined &&
		inWindow(window, page.published) &&
		(!before || before[1] !== page.version) &&
		!(firstSight && page.published !== page.updated)
	) {
		events.push('pagePublished');
	}
	return { events, entry: [maxStamp(before?.[0], page.updated) as Stamp, page.version] };
}

/** When a source became ready: processed_at, or updated_at for rows that lack it. */
export function readyStamp(row: IDataObject): Stamp | undefined {
	if (row.status !== 'ready' || typeof row.id !== 'string') return undefined;
	return toStamp(row.processed_at) ?? toStamp(row.updated_at);
}

export function sourceIsNew(id: string, stamp: Stamp, seen: SourceSeen, window: Window): boolean {
	if (!inWindow(window, stamp)) return false;
	const before = seen[id];
	return before === undefined || stamp > before;
}
