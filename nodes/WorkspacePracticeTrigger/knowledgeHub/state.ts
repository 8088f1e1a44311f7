import type { IDataObject } from 'n8n-workflow';

import type { FamilyState } from '../family';
import { storedState } from '../family';
import { RecentKeys, SeenChanges } from './changes';
import type { PageProgress, SourcesPass } from './read';
import type { Stamp } from './timestamps';
import { toStamp } from './timestamps';

/**
 * What Knowledge Hub mode remembers between polls, in the node's workflow static data (frozen from
 * 0.1.0: see ARCHITECTURE.md, Frozen). Two streams (pages,
 * sources), each with:
 * - `cursor`: the newest service timestamp read so far (never the n8n host's clock); null when the
 *   list was empty at activation, so the next poll reads it from the start;
 * - `seen`: the keys of the changes already emitted or taken as the starting point (changes.ts), for
 *   rows inside the overlap window only (older ones can never come back, see `windowOf`), at most
 *   SEEN_MAX_BYTES of them;
 * - `floor`: set only when the bound cut keys off: rows at or before it are ignored, so a change whose
 *   key was dropped cannot be emitted again;
 * - `from`: set only after a read the list moved under (see read.ts): the next poll reads again from
 *   this point, not from the cursor, so the rows that moved are found;
 * - `newest`: the newest timestamp the list showed (pages), to know when a crowded second is over;
 * - `known`: pages under filters only, the pages seen since activation (bounded, see changes.ts);
 * - `progress`: pages only, while a read stopped by a poll's deadline is not read through: the cut of
 *   the list it reads and the next list page (read.ts); `from` is then the cut's lower bound, so the
 *   seen set keeps every change the read has emitted.
 */
export interface Stream {
	cursor: Stamp | null;
	floor?: Stamp;
	from?: Stamp;
	newest?: Stamp;
	/** Sources: the digest of the first list page at the last full read (see read.ts). */
	digest?: string;
	seen: SeenChanges;
	/** Pages under filters: the pages seen since activation, most recent last (events.ts). */
	known?: RecentKeys;
	/** Pages: the read a poll's deadline stopped, to go on with (read.ts). */
	progress?: PageProgress;
	/** Sources: the read of the list a poll's deadline stopped, to go on with (read.ts). */
	pass?: SourcesPass;
}

export const STATE_VERSION = 2;

export interface TriggerState extends FamilyState {
	v: number;
	pages?: Stream;
	sources?: Stream;
	/** The last read was cut with work left: the stream the next one reads first (poll.ts). */
	first?: 'pages' | 'sources';
}

function readStamp(value: unknown): Stamp | undefined {
	const stamp = toStamp(value);
	return stamp !== undefined && stamp === value ? stamp : undefined;
}

function readStream(raw: unknown): Stream | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const { cursor, floor, from, newest, digest, seen, known, progress, pass } = raw as IDataObject;
	const cursorStamp = cursor === null ? null : readStamp(cursor);
	const seenChanges = SeenChanges.fromJSON(seen);
	if (cursorStamp === undefined || seenChanges === undefined) return undefined;
	const stream: Stream = { cursor: cursorStamp, seen: seenChanges };
	const floorStamp = readStamp(floor);
	if (floorStamp !== undefined) stream.floor = floorStamp;
	const fromStamp = readStamp(from);
	if (fromStamp !== undefined) stream.from = fromStamp;
	const newestStamp = readStamp(newest);
	if (newestStamp !== undefined) stream.newest = newestStamp;
	if (typeof digest === 'string') stream.digest = digest;
	if (typeof known === 'string') stream.known = RecentKeys.fromJSON(known);
	const readProgress = readPageProgress(progress);
	if (readProgress) stream.progress = readProgress;
	const readPass = readSourcesPass(pass);
	if (readPass) stream.pass = readPass;
	return stream;
}

/** A sources read's progress as stored; anything else is none (the next read starts a new pass). */
function readSourcesPass(raw: unknown): SourcesPass | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const { page, total, digest, newest, moved } = raw as IDataObject;
	const count = (value: unknown) =>
		typeof value === 'number' && Number.isInteger(value) && value >= 0;
	if (!count(page) || !count(total) || typeof digest !== 'string') return undefined;
	const pass: SourcesPass = { page: page as number, total: total as number, digest };
	const newestStamp = readStamp(newest);
	if (newestStamp !== undefined) pass.newest = newestStamp;
	if (moved === true) pass.moved = true;
	return pass;
}

/** A read's progress as stored; anything else is none (the next read starts afresh from the cursor). */
function readPageProgress(raw: unknown): PageProgress | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const { from, upper, total, page, unsettled, since } = raw as IDataObject;
	const upperStamp = readStamp(upper);
	const fromStamp = readStamp(from);
	const sinceStamp = readStamp(since);
	const count = (value: unknown) =>
		typeof value === 'number' && Number.isInteger(value) && value >= 0;
	if (upperStamp === undefined || (from !== undefined && fromStamp === undefined)) return undefined;
	if (!count(total) || !count(page)) return undefined;
	const progress: PageProgress = {
		upper: upperStamp,
		total: total as number,
		page: page as number,
	};
	if (fromStamp !== undefined) progress.from = fromStamp;
	if (sinceStamp !== undefined) progress.since = sinceStamp;
	if (unsettled === true) progress.unsettled = true;
	return progress;
}

/**
 * The stored state. Anything unreadable (an unknown version, hand-edited) counts as absent: that stream
 * starts again from "now", which emits nothing old rather than risking a flood.
 */
export function readState(staticData: IDataObject): TriggerState {
	const state: TriggerState = { v: STATE_VERSION };
	const stored = storedState<TriggerState>(staticData, STATE_VERSION);
	const pages = readStream(stored?.pages);
	const sources = readStream(stored?.sources);
	if (pages) state.pages = pages;
	if (sources) state.sources = sources;
	// What family.ts keeps beside the streams: a read to go on with, and the read quota.
	if (stored?.continues === true) state.continues = true;
	if (stored?.first === 'pages' || stored?.first === 'sources') state.first = stored.first;
	if (typeof stored?.quotaEmptyAt === 'number') state.quotaEmptyAt = stored.quotaEmptyAt;
	return state;
}
