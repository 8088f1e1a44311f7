import { sleep } from 'n8n-workflow';

/**
 * Waiting on many things the service finishes in the background (scenario jobs, Knowledge Hub
 * sources): one loop, each thing on its own schedule. A kind of thing is configuration (`WaitKind`):
 * how to read it, when it is done, what its end and its time limit become, its next pause.
 */

/** How one thing is waited for. */
export interface WaitSettings {
	/** Pause before the first read (0: read at once). */
	firstDelayMs: number;
	/** Counted from the creation. */
	timeLimitMs: number;
	itemIndex: number;
}

/** One thing to wait for: as its creation returned it, when, and how. */
export interface Waiting<T, S extends WaitSettings = WaitSettings> {
	value: T;
	/** Date.now() right after its creation: the time limit counts from here. */
	createdAt: number;
	settings: S;
}

/** A thing just created (call right after its creation: the time limit counts from now). */
export function waiting<T, S extends WaitSettings>(value: T, settings: S): Waiting<T, S> {
	return { value, createdAt: Date.now(), settings };
}

/** A thing's end: its final value, or the error its wait ended with. */
export type WaitEnd<T> = { value: T } | { error: unknown };

export interface WaitKind<T, W extends Waiting<T>> {
	isDone(value: T): boolean;
	/** What a done value becomes: itself, or (thrown) the error it stands for. */
	finish(waiting: W, value: T): T;
	/** A value still running at its deadline: a value (e.g. once cancelled) or, thrown, the error. */
	atDeadline(waiting: W, last: T): Promise<T>;
	/** The pause after a read, from the pause before it. */
	nextDelay(previous: number): number;
	readOne(waiting: W): Promise<T>;
	/**
	 * One read for all pending things (a list): a value per thing found, undefined for one it did not
	 * show (that one is read alone when due). Used only while more than one thing is pending.
	 */
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

/**
 * Waits until every thing is done, each on its own schedule (first delay, then `nextDelay`, a last read
 * at its deadline counted from its own creation), so a thing is read no more often than when waited on
 * alone. The loop sleeps until the earliest next read; things due together are read one after another,
 * or all in one read when the kind can (`readTogether`), which also counts as a read of those not due
 * yet. Ends come back in the order given.
 */
export async function waitMany<T, W extends Waiting<T>>(
	kind: WaitKind<T, W>,
	list: W[],
): Promise<Array<WaitEnd<T>>> {
	const ends: Array<WaitEnd<T> | undefined> = new Array<WaitEnd<T> | undefined>(list.length);
	let pending: Array<Pending<W>> = [];
	list.forEach((thing, index) => {
		if (kind.isDone(thing.value)) {
			ends[index] = finish(kind, thing, thing.value);
			return;
		}
		const deadline = thing.createdAt + thing.settings.timeLimitMs;
		const delay = Math.max(0, thing.settings.firstDelayMs);
		pending.push({
			index,
			waiting: thing,
			deadline,
			delay,
			wakeAt: Math.min(thing.createdAt + delay, deadline),
		});
	});

	while (pending.length > 0) {
		const pause = Math.min(...pending.map((p) => p.wakeAt)) - Date.now();
		if (pause > 0) await sleep(pause);
		const due = pending.filter((p) => p.wakeAt <= Date.now());
		const together = pending.length > 1 ? await readAll(kind, pending) : undefined;
		if (together) {
			for (const [n, entry] of pending.entries()) {
				const value = together[n];
				if (value !== undefined) ends[entry.index] = await afterRead(kind, entry, value);
			}
		}
		for (const entry of due) {
			if (together?.[pending.indexOf(entry)] !== undefined) continue;
			ends[entry.index] = await readAlone(kind, entry);
		}
		pending = pending.filter((p) => ends[p.index] === undefined);
	}
	// Every index has an end here: done at creation, or settled in the loop.
	return ends.map((end) => end ?? { error: new Error('wait left without an end') });
}

function finish<T, W extends Waiting<T>>(kind: WaitKind<T, W>, waiting: W, value: T): WaitEnd<T> {
	try {
		return { value: kind.finish(waiting, value) };
	} catch (error) {
		return { error };
	}
}

/** A list read of all pending, or undefined when the kind has none or it failed (each is read alone). */
async function readAll<T, W extends Waiting<T>>(
	kind: WaitKind<T, W>,
	pending: Array<Pending<W>>,
): Promise<Array<T | undefined> | undefined> {
	if (!kind.readTogether) return undefined;
	try {
		return await kind.readTogether(pending.map((p) => p.waiting));
	} catch {
		return undefined;
	}
}

async function readAlone<T, W extends Waiting<T>>(
	kind: WaitKind<T, W>,
	entry: Pending<W>,
): Promise<WaitEnd<T> | undefined> {
	try {
		return await afterRead(kind, entry, await kind.readOne(entry.waiting));
	} catch (error) {
		return { error };
	}
}

/** A read value: the thing's end when it is done (or its time is up), else its next read is planned. */
async function afterRead<T, W extends Waiting<T>>(
	kind: WaitKind<T, W>,
	entry: Pending<W>,
	value: T,
): Promise<WaitEnd<T> | undefined> {
	if (kind.isDone(value)) return finish(kind, entry.waiting, value);
	if (Date.now() >= entry.deadline) {
		try {
			return { value: await kind.atDeadline(entry.waiting, value) };
		} catch (error) {
			return { error };
		}
	}
	entry.delay = kind.nextDelay(entry.delay);
	entry.wakeAt = Math.min(Date.now() + entry.delay, entry.deadline);
	return undefined;
}
