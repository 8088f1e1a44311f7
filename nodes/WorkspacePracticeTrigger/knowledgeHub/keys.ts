/**
 * What identifies a change, per event family (changes.ts): the id, the timestamp and the listed fields
 * an edit changes; fields an edit elsewhere changes without moving the timestamp (names, source_count)
 * are left out.
 */
import type { ChangeKey } from './changes';
import { changeKey } from './changes';
import type { Stamp } from './timestamps';

/** What a page list row shows of one state of the page. */
export interface PageState {
	id: string;
	updated: Stamp;
	title: string;
	status: string;
	version: number | null;
	published?: Stamp;
}

/** The page was seen (in any state): it is no longer new for Page Created. */
export const pageSeenKey = (id: string): ChangeKey => changeKey(['page', id]);

/** One observed state of a page: Page Updated once per key. */
export const pageStateKey = (page: PageState): ChangeKey =>
	changeKey([
		'page-state',
		page.id,
		page.updated,
		page.title,
		page.status,
		page.version,
		page.published,
	]);

/** One published version of a page: Page Published once per key (versions only grow). */
export const pageVersionKey = (id: string, version: number): ChangeKey =>
	changeKey(['page-version', id, version]);

/** A source that became ready at a given time: Source Ready once per key (a re-extraction is new). */
export const sourceReadyKey = (id: string, processed: Stamp): ChangeKey =>
	changeKey(['source-ready', id, processed]);
