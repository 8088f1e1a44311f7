import type { IDataObject } from 'n8n-workflow';

import type { FamilyState } from '../family';
import { storedState } from '../family';
import { RecentKeys, SeenChanges } from './changes';
import { pageSeenKey, pageV1StateKey, pageVersionKey, sourceReadyKey } from './keys';
import type { PageProgress } from './read';
import type { Stamp } from './timestamps';
import { toStamp } from './timestamps';

/**
 * What Knowledge Hub mode remembers between polls, in the node's workflow static data (this shape,
 * and version 1's, are read from existing workflows: see ARCHITECTURE.md, Frozen). Two streams (pages,
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
}

export const STATE_VERSION = 2;

export interface TriggerState extends FamilyState {
	v: number;
	pages?: Stream;
	sources?: Stream;
}

function readStamp(value: unknown): Stamp | undefined {
	const stamp = toStamp(value);
	return stamp !== undefined && stamp === value ? stamp : undefined;
}

function readStream(raw: unknown, readSeen: (value: unknown) => SeenChanges | undefined) {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const { cursor, floor, from, newest, digest, seen, known, progress } = raw as IDataObject;
	const cursorStamp = cursor === null ? null : readStamp(cursor);
	const seenChanges = readSeen(seen);
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
	return stream;
}

/** A read's progress as stored; anything else is none (the next read starts afresh from the cursor). */
function readPageProgress(raw: unknown): PageProgress | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const { from, upper, total, page, unsettled } = raw as IDataObject;
	const upperStamp = readStamp(upper);
	const fromStamp = readStamp(from);
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
	if (unsettled === true) progress.unsettled = true;
	return progress;
}

/**
 * Version 1 kept, per id, the last timestamp seen (and a page's version). Its entries become the keys
 * they stand for, so an upgrade neither repeats nor loses a change: a page's row as last seen matches
 * its v1 key (keys.ts), a source's ready key is the same as before.
 */
function readV1Seen(
	value: unknown,
	keysOf: (id: string, entry: unknown) => Array<[string, Stamp]> | undefined,
): SeenChanges | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const seen = new SeenChanges();
	for (const [id, entry] of Object.entries(value)) {
		const keys = keysOf(id, entry);
		if (!keys) return undefined;
		for (const [key, stamp] of keys) seen.add(key, stamp);
	}
	return seen;
}

function v1PageKeys(id: string, entry: unknown): Array<[string, Stamp]> | undefined {
	if (!Array.isArray(entry) || entry.length !== 2) return undefined;
	const stamp = readStamp(entry[0]);
	const version = entry[1] as unknown;
	if (stamp === undefined || !(version === null || typeof version === 'number')) return undefined;
	const keys: Array<[string, Stamp]> = [
		[pageSeenKey(id), stamp],
		[pageV1StateKey(id, stamp), stamp],
	];
	if (version !== null) keys.push([pageVersionKey(id, version), stamp]);
	return keys;
}

function v1SourceKeys(id: string, entry: unknown): Array<[string, Stamp]> | undefined {
	const stamp = readStamp(entry);
	return stamp === undefined ? undefined : [[sourceReadyKey(id, stamp), stamp]];
}

/**
 * The stored state. Anything unreadable (an unknown version, hand-edited) counts as absent: that stream
 * starts again from "now", which emits nothing old rather than risking a flood.
 */
export function readState(staticData: IDataObject): TriggerState {
	const state: TriggerState = { v: STATE_VERSION };
	let pages: Stream | undefined;
	let sources: Stream | undefined;
	const current = storedState<TriggerState>(staticData, STATE_VERSION);
	const v1 = current ? undefined : storedState<TriggerState>(staticData, 1);
	if (current) {
		pages = readStream(current.pages, SeenChanges.fromJSON);
		sources = readStream(current.sources, SeenChanges.fromJSON);
	} else if (v1) {
		pages = readStream(v1.pages, (seen) => readV1Seen(seen, v1PageKeys));
		sources = readStream(v1.sources, (seen) => readV1Seen(seen, v1SourceKeys));
	}
	if (pages) state.pages = pages;
	if (sources) state.sources = sources;
	// What family.ts keeps beside the streams: a read to go on with, and the read quota.
	if (current?.continues === true) state.continues = true;
	if (typeof current?.quotaEmptyAt === 'number') state.quotaEmptyAt = current.quotaEmptyAt;
	return state;
}
