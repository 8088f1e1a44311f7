import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

// One read at a time per trigger, in this process, and never one from a copy of the state older than
// the last read's. n8n's durable scheduler gives each Poll Times entry its own job, and a poll the
// cursor read when its task began, before its other work: a poll of another entry may have read,
// written and handed its state to n8n meanwhile, and one that then read from the older copy would send
// the same events again (seen in the real-n8n suite under load: 204 sessions twice).

/** The trigger nodes whose read is under way in this process (workflow ID and node ID). */
const reading = new Set<string>();

/** Per trigger, the state its last read began from, and when it ended (n8n may still be committing). */
const wrote = new Map<string, { from: string; at: number }>();

/** Longer than n8n's lease on a poll (60 s): by then the state written is committed or dropped. */
export const COMMIT_WINDOW_MS = 120_000;

const digest = (staticData: IDataObject): string =>
	createHash('sha256').update(JSON.stringify(staticData)).digest('base64url');

/** No state yet: a read from it only records where the trigger starts (it sends nothing). */
const NONE = digest({});

/**
 * Whether a read may begin: none under way for this trigger, and its state is not the one the last read
 * (ended within COMMIT_WINDOW_MS) began from, unless that was no state. Returns the state's digest when
 * it may, to pass to `end`.
 */
export function begin(key: string, staticData: IDataObject, now: number): string | undefined {
	if (reading.has(key)) return undefined;
	const from = digest(staticData);
	const last = wrote.get(key);
	const stale = last !== undefined && last.from === from && from !== NONE;
	if (stale && now - last.at < COMMIT_WINDOW_MS) return undefined;
	wrote.delete(key);
	reading.add(key);
	return from;
}

/**
 * The read is over. `inBudget`: it ended inside its poll budget, so n8n takes its state (it did not
 * abandon the poll); the state it began from is kept when the read changed it.
 */
export function end(
	key: string,
	from: string,
	staticData: IDataObject,
	now: number,
	inBudget: boolean,
): void {
	reading.delete(key);
	if (inBudget && digest(staticData) !== from) wrote.set(key, { from, at: now });
}

/** n8n restarted (tests): this process's memory of reads is gone. */
export function forgetReads(): void {
	reading.clear();
	wrote.clear();
}
