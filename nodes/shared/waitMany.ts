import { sleep } from 'n8n-workflow';

/** One loop for what the service finishes in the background; each kind is configuration. */

export interface WaitSettings {
	/** Pause before the first read (0: at once). */
	firstDelayMs: number;
	/** Counted from the creation. */
	timeLimitMs: number;
	itemIndex: number;
}

export interface Waiting<T, S extends WaitSettings = WaitSettings> {
	value: T;
	/** Date.now() right after its creation: the time limit counts from here. */
	createdAt: number;
	settings: S;
}

export function waiting<T, S extends WaitSettings>(value: T, settings: S): Waiting<T, S> {
	return { value, createdAt: Date.now(), settings };
}

export type WaitEnd<T> = { value: T } | { error: unknown };

export interface WaitKind<T, W extends Waiting<T>> {
	isDone(value: T): boolean;
	/** What a done value becomes: itself, or (thrown) the error it stands for. */
	finish(waiting: W, value: T): T;
	/** A value still running at its deadline: a value (e.g. once cancelled) or, thrown, the error. */
	atDeadline(waiting: W, last: T): Promise<T>;
	nextDelay(previous: number): number;
	readOne(waiting: W): Promise<T>;
	/** One read for all pending (while more than one): undefined for one it did not show. */
	readTogether?(pending: W[]): Promise<Array<T | undefined>>;
}

interface Pending<W> {
	index: number;
	waiting: W;
	deadline: number;
	delay: number;
	/** The next read: after the current pause, never later than the deadline. */
	wakeAt: number;
}

async function ended<T>(work: () => T | Promise<T>): Promise<WaitEnd<T>> {
	try {
		return { value: await work() };
	} catch (error) {
		return { error };
	}
}

/**
 * Waits until every thing is done, each read no more often than alone: first delay, `nextDelay`, a
 * last read at its own deadline. Things due together are read in turn, or in one `readTogether`,
 * which counts as a read of those not due yet too. Ends come back in the order given.
 */
export async function waitMany<T, W extends Waiting<T>>(
	kind: WaitKind<T, W>,
	list: W[],
): Promise<Array<WaitEnd<T>>> {
	const ends = new Array<WaitEnd<T> | undefined>(list.length);
	let pending: Array<Pending<W>> = [];
	for (const [index, thing] of list.entries()) {
		if (kind.isDone(thing.value)) {
			ends[index] = await ended(() => kind.finish(thing, thing.value));
			continue;
		}
		const deadline = thing.createdAt + thing.settings.timeLimitMs;
		const delay = Math.max(0, thing.settings.firstDelayMs);
		const wakeAt = Math.min(thing.createdAt + delay, deadline);
		pending.push({ index, waiting: thing, deadline, delay, wakeAt });
	}

	while (pending.length > 0) {
		const pause = Math.min(...pending.map((p) => p.wakeAt)) - Date.now();
		if (pause > 0) await sleep(pause);
		const due = pending.filter((p) => p.wakeAt <= Date.now());
		// A failed list read leaves each to be read alone.
		const together =
			pending.length > 1 && kind.readTogether
				? await kind.readTogether(pending.map((p) => p.waiting)).catch(() => undefined)
				: undefined;
		for (const [n, entry] of pending.entries()) {
			const value = together?.[n];
			if (value !== undefined) ends[entry.index] = await afterRead(kind, entry, value);
		}
		for (const entry of due) {
			if (together?.[pending.indexOf(entry)] !== undefined) continue;
			try {
				ends[entry.index] = await afterRead(kind, entry, await kind.readOne(entry.waiting));
			} catch (error) {
				ends[entry.index] = { error };
			}
		}
		pending = pending.filter((p) => ends[p.index] === undefined);
	}
	// Every index has an end here: done at creation, or settled in the loop.
	return ends.map((end) => end ?? { error: new Error('wait left without an end') });
}

/** The thing's end when it is done or its time is up; else its next read is planned. */
async function afterRead<T, W extends Waiting<T>>(
	kind: WaitKind<T, W>,
	entry: Pending<W>,
	value: T,
): Promise<WaitEnd<T> | undefined> {
	if (kind.isDone(value)) return await ended(() => kind.finish(entry.waiting, value));
	if (Date.now() >= entry.deadline) return await ended(() => kind.atDeadline(entry.waiting, value));
	entry.delay = kind.nextDelay(entry.delay);
	entry.wakeAt = Math.min(Date.now() + entry.delay, entry.deadline);
	return undefined;
}
