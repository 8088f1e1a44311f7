import type { IDataObject } from 'n8n-workflow';

import type { Stamp } from './timestamps';
import { maxStamp, shiftStamp, toStamp } from './timestamps';

/**
 * What the trigger remembers between polls, in the node's workflow static data. Two streams (pages,
 * sources), each with:
 * - `cursor`: the newest service timestamp read so far (never the n8n host's clock); null when the
 *   list was empty at activation, so the next poll reads it from the start;
 * - `seen`: what was already emitted or taken as the starting point, for rows inside the overlap window
 *   only (older entries can never come back, see `windowOf`), and at most SEEN_CAP of them;
 * - `floor`: set only when the cap cut entries off: rows at or before it are ignored, so an entry that
 *   was dropped cannot be emitted again;
 * - `from`: set only after a read the list moved under (see read.ts): the next poll reads again from
 *   this point, not from the cursor, so the rows that moved are found;
 * - `newest`: the newest timestamp the list showed (pages), to know when a crowded second is over.
 */

/** Rows this far behind the cursor are read again, for changes the service commits late. */
export const OVERLAP_MS = 2 * 60_000;
/** Most entries kept per stream; a burst larger than this inside the overlap narrows the window instead. */
export const SEEN_CAP = 500;
export const STATE_VERSION = 1;

/** Page id → [updated_at, version] as last seen. */
export type PageSeen = Record<string, [Stamp, number | null]>;
/** Source id → processed_at as last seen. */
export type SourceSeen = Record<string, Stamp>;

export interface Stream<S> {
	cursor: Stamp | null;
	floor?: Stamp;
	from?: Stamp;
	newest?: Stamp;
	/** Sources: the digest of the first list page at the last full read (see read.ts). */
	digest?: string;
	seen: S;
}

export interface TriggerState {
	v: number;
	/** Host time of the last read (see pacing.ts); only differences between two of them are used. */
	readAt?: number;
	pages?: Stream<PageSeen>;
	sources?: Stream<SourceSeen>;
}

/** The span of service time a poll considers: from `from` (inclusive), strictly after `after`. */
export interface Window {
	from?: Stamp;
	after?: Stamp;
}

export function windowOf(stream: { cursor: Stamp | null; floor?: Stamp; from?: Stamp }): Window {
	const overlap = stream.cursor === null ? undefined : shiftStamp(stream.cursor, -OVERLAP_MS);
	return {
		from:
			stream.from !== undefined && overlap !== undefined && stream.from < overlap
				? stream.from
				: overlap,
		after: stream.floor,
	};
}

export function inWindow(window: Window, stamp: Stamp): boolean {
	return (
		(window.from === undefined || stamp >= window.from) &&
		(window.after === undefined || stamp > window.after)
	);
}

/** The inclusive lower bound to ask the service for (it filters on or after). */
export function lowerBound(window: Window): Stamp | undefined {
	return maxStamp(window.from, window.after);
}

/**
 * Keeps the entries still inside the window of the new cursor, then at most SEEN_CAP of them, newest
 * first and whole timestamps at a time (the newest timestamp is always kept whole).
 */
export function pruneStream<S extends Record<string, unknown>>(
	stream: Stream<S>,
	stampOf: (entry: S[string]) => Stamp,
): Stream<S> {
	const window = windowOf(stream);
	const entries = Object.entries(stream.seen)
		.map(([id, entry]) => ({ id, entry: entry as S[string], stamp: stampOf(entry as S[string]) }))
		.filter((e) => inWindow(window, e.stamp))
		.sort((a, b) => (a.stamp < b.stamp ? 1 : a.stamp > b.stamp ? -1 : 0));
	let floor = stream.floor;
	let kept = entries.length;
	if (entries.length > SEEN_CAP) {
		kept = 0;
		while (kept < entries.length) {
			let end = kept;
			while (end < entries.length && entries[end].stamp === entries[kept].stamp) end++;
			if (kept > 0 && end > SEEN_CAP) break;
			kept = end;
		}
		if (kept < entries.length) floor = maxStamp(floor, entries[kept].stamp);
	}
	const seen = {} as Record<string, unknown>;
	for (const e of entries.slice(0, kept)) seen[e.id] = e.entry;
	const out: Stream<S> = { cursor: stream.cursor, seen: seen as S };
	if (floor !== undefined) out.floor = floor;
	if (stream.from !== undefined) out.from = stream.from;
	if (stream.newest !== undefined) out.newest = stream.newest;
	if (stream.digest !== undefined) out.digest = stream.digest;
	return out;
}

// ---------- reading and writing static data ----------

function readStamp(value: unknown): Stamp | undefined {
	const stamp = toStamp(value);
	return stamp !== undefined && stamp === value ? stamp : undefined;
}

function readStream<S>(
	raw: unknown,
	readEntry: (value: unknown) => S[keyof S] | undefined,
): Stream<S> | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const { cursor, floor, from, newest, digest, seen } = raw as IDataObject;
	const cursorStamp = cursor === null ? null : readStamp(cursor);
	if (cursorStamp === undefined || typeof seen !== 'object' || seen === null || Array.isArray(seen))
		return undefined;
	const entries = {} as Record<string, unknown>;
	for (const [id, value] of Object.entries(seen)) {
		const entry = readEntry(value);
		if (entry === undefined) return undefined;
		entries[id] = entry;
	}
	const stream: Stream<S> = { cursor: cursorStamp, seen: entries as S };
	const floorStamp = readStamp(floor);
	if (floorStamp !== undefined) stream.floor = floorStamp;
	const fromStamp = readStamp(from);
	if (fromStamp !== undefined) stream.from = fromStamp;
	const newestStamp = readStamp(newest);
	if (newestStamp !== undefined) stream.newest = newestStamp;
	if (typeof digest === 'string') stream.digest = digest;
	return stream;
}

function readPageEntry(value: unknown): [Stamp, number | null] | undefined {
	if (!Array.isArray(value) || value.length !== 2) return undefined;
	const stamp = readStamp(value[0]);
	const version = value[1];
	if (stamp === undefined || !(version === null || typeof version === 'number')) return undefined;
	return [stamp, version];
}

/**
 * The stored state. Anything unreadable (another version, hand-edited) counts as absent: that stream
 * starts again from "now", which emits nothing old rather than risking a flood.
 */
export function readState(staticData: IDataObject): TriggerState {
	const state: TriggerState = { v: STATE_VERSION };
	if (staticData.v !== STATE_VERSION) return state;
	const pages = readStream<PageSeen>(staticData.pages, readPageEntry);
	const sources = readStream<SourceSeen>(staticData.sources, readStamp);
	if (pages) state.pages = pages;
	if (sources) state.sources = sources;
	return state;
}

/**
 * Replaces the static data with the new state, in place (n8n watches that object). Called once, after
 * every request of the poll succeeded; an unchanged state is left untouched so nothing is saved for it.
 */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	const next = JSON.parse(JSON.stringify(state)) as IDataObject;
	const current: IDataObject = {};
	for (const [key, value] of Object.entries(staticData)) current[key] = value;
	if (JSON.stringify(current) === JSON.stringify(next)) return;
	for (const key of Object.keys(staticData)) if (!(key in next)) delete staticData[key];
	Object.assign(staticData, next);
}
