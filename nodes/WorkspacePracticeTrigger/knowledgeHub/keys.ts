/**
 * What identifies a change, per event family (the rule is in changes.ts): the fields of a list row that
 * an edit changes, with the record's id and timestamp. Fields an edit elsewhere can change without
 * moving the row's timestamp (a folder or skill renamed, a source archived: names, source_count) are
 * left out, so they never look like a change of the page.
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
