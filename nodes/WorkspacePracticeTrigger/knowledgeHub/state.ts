import type { IDataObject } from 'n8n-workflow';

import type { FamilyState } from '../family';
import { storedState } from '../family';
import { RecentKeys, SeenChanges } from './changes';
import type { PageProgress, SourcesPass } from './read';
import type { Stamp } from './timestamps';
import { toStamp } from './timestamps';

/** One stream's part of the static data (frozen from 0.1.0: ARCHITECTURE.md). */
export interface Stream {
	/** The newest service timestamp read (null: the list was empty at activation). */
	cursor: Stamp | null;
	/** Rows at or before it are ignored: their keys were dropped for space. */
	floor?: Stamp;
	/** Where the next read starts, after the list moved under one or during a cut. */
	from?: Stamp;
	/** Pages: the newest timestamp the list showed, to tell when a crowded second is over. */
	newest?: Stamp;
	/** Sources: the digest of page 1 at the last full read. */
	digest?: string;
	seen: SeenChanges;
	/** Pages under filters: the pages seen since activation. */
	known?: RecentKeys;
	/** A read the deadline stopped: pages' cut, sources' pass. */
	progress?: PageProgress;
	pass?: SourcesPass;
}

export const STATE_VERSION = 2;

export interface TriggerState extends FamilyState {
	v: number;
	pages?: Stream;
	sources?: Stream;
	/** The stream the next read takes first. */
	first?: 'pages' | 'sources';
}

function readStamp(value: unknown): Stamp | undefined {
	const stamp = toStamp(value);
	return stamp !== undefined && stamp === value ? stamp : undefined;
}

function readStream(raw: unknown): Stream | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const { cursor, digest, seen, known, progress, pass } = raw as IDataObject;
	const cursorStamp = cursor === null ? null : readStamp(cursor);
	const seenChanges = SeenChanges.fromJSON(seen);
	if (cursorStamp === undefined || seenChanges === undefined) return undefined;
	const stream: Stream = { cursor: cursorStamp, seen: seenChanges };
	for (const key of ['floor', 'from', 'newest'] as const) {
		const stamp = readStamp((raw as IDataObject)[key]);
		if (stamp !== undefined) stream[key] = stamp;
	}
	if (typeof digest === 'string') stream.digest = digest;
	if (typeof known === 'string') stream.known = RecentKeys.fromJSON(known);
	const readProgress = readPageProgress(progress);
	if (readProgress) stream.progress = readProgress;
	const readPass = readSourcesPass(pass);
	if (readPass) stream.pass = readPass;
	return stream;
}

const count = (value: unknown) =>
	typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** A sources read's progress as stored; anything else is none (the next read starts a new pass). */
function readSourcesPass(raw: unknown): SourcesPass | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const { page, total, digest, newest, moved } = raw as IDataObject;
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
	if (stored?.continues === true) state.continues = true;
	if (stored?.first === 'pages' || stored?.first === 'sources') state.first = stored.first;
	if (typeof stored?.quotaEmptyAt === 'number') state.quotaEmptyAt = stored.quotaEmptyAt;
	return state;
}
