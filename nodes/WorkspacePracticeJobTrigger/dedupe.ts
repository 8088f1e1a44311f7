import type { IDataObject } from 'n8n-workflow';

import { FINAL_STATUSES } from '../shared/scenarioJob/job';

/**
 * The deliveries the Job Trigger let through. Every delivery and execution works on its own copy of
 * static data, written back whole, the last write winning, and n8n 2.x never writes a delivery's copy
 * that starts an execution (docs/batching.md). So the process keeps its memory (synchronous: of
 * simultaneous duplicates one passes), every copy it writes carries all of it, copies not yet written
 * get later entries too, and the execution writes the entry as well.
 */

export const DEFAULT_STATUSES: string[] = [...FINAL_STATUSES];
export const DEFAULT_WINDOW_MINUTES = 60;

/** Deliveries remembered per trigger: the default hour holds at most 600 jobs (10 a minute). */
const DEDUPE_CAP = 1_000;

/** Copies of static data written this long after they were handed to this module still get entries. */
const LIVE_COPY_MS = 60_000;
/** Live copies kept per trigger at most. */
const LIVE_COPY_CAP = 50;

export interface DedupeState {
	/** `<job id>:<status>` → when it was first delivered (ms), oldest first. */
	recentDeliveries?: Record<string, number>;
}

/** The one duplicate key: the same job ending in the same status. */
export function dedupeKey(job: IDataObject): string {
	return `${String(job.id)}:${String(job.status)}`;
}

/** The Duplicate Window option in milliseconds (0: off). */
export function windowMs(options: IDataObject): number {
	const minutes =
		typeof options.duplicateWindowMinutes === 'number'
			? options.duplicateWindowMinutes
			: DEFAULT_WINDOW_MINUTES;
	return Math.max(0, minutes) * 60_000;
}

interface TriggerMemory {
	/** key → first delivery (ms), in insertion order (oldest first). */
	seen: Map<string, number>;
	/** Static-data copies of this trigger handed out recently, with when they were. */
	live: Array<{ state: DedupeState; at: number }>;
}

/** Per process, per trigger (`<workflow id>:<node id>`). */
const memory = new Map<string, TriggerMemory>();

function memoryOf(scope: string): TriggerMemory {
	const found = memory.get(scope) ?? { seen: new Map(), live: [] };
	memory.set(scope, found);
	return found;
}

/** Only entries inside the window, at most DEDUPE_CAP, oldest first. */
function bounded(entries: Iterable<[string, number]>, now: number, window: number) {
	const byKey = new Map<string, number>();
	for (const [key, at] of entries) {
		if (typeof at !== 'number' || now - at >= window) continue;
		const known = byKey.get(key);
		if (known === undefined || at < known) byKey.set(key, at);
	}
	const sorted = [...byKey].sort((a, b) => a[1] - b[1]);
	return sorted.slice(Math.max(0, sorted.length - DEDUPE_CAP));
}

/** Writes the process memory (and what the copy already held) into one copy, bounded. */
function writeInto(state: DedupeState, mem: TriggerMemory, now: number, window: number): void {
	const merged = bounded(
		[...Object.entries(state.recentDeliveries ?? {}), ...mem.seen],
		now,
		window,
	);
	// Assigning marks the static data changed, so n8n writes it (where it writes this copy at all).
	state.recentDeliveries = Object.fromEntries(merged);
}

/** Adds `keys` to the copies handed out earlier and maybe not written yet, then writes this one. */
function refreshCopies(
	mem: TriggerMemory,
	state: DedupeState,
	keys: string[],
	now: number,
	window: number,
): void {
	mem.live = mem.live.filter((c) => now - c.at < LIVE_COPY_MS && c.state !== state);
	for (const { state: copy } of mem.live) {
		const entries = copy.recentDeliveries ?? (copy.recentDeliveries = {});
		for (const key of keys) {
			const at = mem.seen.get(key);
			if (at !== undefined && !(key in entries)) entries[key] = at;
		}
	}
	mem.live.push({ state, at: now });
	if (mem.live.length > LIVE_COPY_CAP) mem.live.splice(0, mem.live.length - LIVE_COPY_CAP);
	writeInto(state, mem, now, window);
}

function remember(mem: TriggerMemory, keys: string[], now: number, window: number): void {
	for (const key of keys) if (!mem.seen.has(key)) mem.seen.set(key, now);
	mem.seen = new Map(bounded(mem.seen, now, window));
}

/** Whether this job+status passed within the window (here or in this copy); records it if not. */
export function isRepeat(
	state: DedupeState,
	scope: string,
	key: string,
	now: number,
	window: number,
): boolean {
	const mem = memoryOf(scope);
	const inMemory = mem.seen.get(key);
	const stored = state.recentDeliveries?.[key];
	const repeat =
		(inMemory !== undefined && now - inMemory < window) ||
		(typeof stored === 'number' && now - stored < window);
	// A repeat known only from static data is learnt too, so this process's writes keep it.
	if (repeat && inMemory === undefined && typeof stored === 'number') mem.seen.set(key, stored);
	else if (!repeat) remember(mem, [key], now, window);
	// Even a repeat's copy carries the memory: n8n writes it, and that write must not drop entries.
	refreshCopies(mem, state, [key], now, window);
	return repeat;
}

/** An execution the trigger started: its entries go into the copy n8n writes when it ends. */
export function recordStarted(
	state: DedupeState,
	scope: string,
	keys: string[],
	now: number,
	window: number,
): void {
	const mem = memoryOf(scope);
	remember(mem, keys, now, window);
	refreshCopies(mem, state, keys, now, window);
}
