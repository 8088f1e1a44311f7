import type { IDataObject } from 'n8n-workflow';

import type { FamilyState } from '../family';
import { storedState } from '../family';
import { RecentKeys, SeenChanges } from './changes';
import type { PageProgress, SourcesPass } from './read';
import type { Stamp } from './timestamps';
import { toStamp } from './timestamps';

/**
 * What Knowledge Hub mode keeps between polls in the static data (frozen from 0.1.0: ARCHITECTURE.md),
 * per stream (pages, sources):
 * - `cursor`: the newest service timestamp read (null: the list was empty at activation);
 * - `seen`: the keys of changes emitted or taken as the starting point, inside the overlap window;
 * - `floor`: rows at or before it are ignored (their keys were dropped for space);
 * - `from`: after a read the list moved under, or during a cut (`progress`): the next read starts here;
 * - `newest`: the newest timestamp the list showed (pages), to tell when a crowded second is over.
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

/** The stored state; an unreadable stream counts as absent and starts again from now (no flood). */
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
