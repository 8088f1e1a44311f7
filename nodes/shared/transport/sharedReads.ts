import type { IDataObject } from 'n8n-workflow';

/**
 * Reads shared within one n8n process: identical GETs (same base URL and key, path and query) made
 * within a short window by several triggers or nodes are sent once, and every caller gets its own copy
 * of the one answer. Opt-in per call site (`share` on the request).
 *
 * Why a shared answer keeps a trigger's exactly-once: a run (a poll) is handed only answers sent after
 * its `since` mark, which a trigger sets to the end of its own previous poll: so the answer is newer
 * than anything that trigger read before, the answer it would have had by reading at that moment, a
 * few seconds before it actually would. A trigger's cursor moves on the service's timestamps, never on
 * this host's clock, so reading a little earlier only leaves changes for its next read. A run with no
 * mark gets one at its first shared read (nothing older is shared with it), and once a run has sent a
 * request of its own it is handed only answers sent after it, so its reads never go back in time
 * within the run. Not for a read that checks
 * whether a list moved since the caller's own earlier read of it (it must reach the service), nor for
 * writes.
 *
 * In-process only: in queue mode each process shares its own reads.
 */

export interface ShareRead {
	/** How long after it was sent an answer may be handed to another caller (ms, at most MAX_SHARE_MS). */
	withinMs: number;
}

/** What the triggers use: polls of several triggers started by n8n's same minute tick meet well inside it. */
export const SHARED_READ_MS = 30_000;

/** Never longer than a minute: a trigger reading more often than that would be handed its own past. */
export const MAX_SHARE_MS = 60_000;

interface Entry {
	/** Order of sending in this process (sharedReadMark). */
	seq: number;
	sentAt: number;
	/** The answer as it came, never handed out itself: each caller gets a copy. */
	answer: Promise<unknown>;
}

const entries = new Map<string, Entry>();
let sent = 0;
const marks = new WeakMap<object, number>();

/** Where this process's shared reads stand: answers sent later have a higher mark. */
export function sharedReadMark(): number {
	return sent;
}

/** A run (one poll's context) may be handed answers sent after `since` (a sharedReadMark) only. */
export function beginSharedReads(ctx: object, since: number): void {
	marks.set(ctx, since);
}

/**
 * A request a run sends itself (shared or not): from then on it is handed only answers sent later, so
 * what a run reads never goes back in time within the run.
 */
export function noteOwnRequest(ctx: object): number {
	sent++;
	marks.set(ctx, sent);
	return sent;
}

/** The query with its keys sorted, so the order the caller built it in does not matter. */
function canonical(qs: IDataObject | undefined): string {
	const sorted = Object.keys(qs ?? {})
		.sort()
		.filter((key) => qs?.[key] !== undefined)
		.map((key) => [key, qs?.[key]]);
	return JSON.stringify(sorted);
}

export function shareKey(digest: string, path: string, qs: IDataObject | undefined): string {
	return `${digest} ${path} ${canonical(qs)}`;
}

function prune(now: number): void {
	for (const [key, entry] of entries) if (now - entry.sentAt > MAX_SHARE_MS) entries.delete(key);
}

/**
 * The answer to `read()`, or to the same read sent within `withinMs`. When a shared read fails, each
 * caller that joined it reads on its own, so an error always belongs to the node that got it.
 */
export async function sharedRead<T>(
	ctx: object,
	key: string,
	share: ShareRead,
	read: () => Promise<T>,
): Promise<T> {
	const now = Date.now();
	prune(now);
	let since = marks.get(ctx);
	if (since === undefined) {
		since = sent;
		marks.set(ctx, since);
	}
	const withinMs = Math.min(Math.max(0, share.withinMs), MAX_SHARE_MS);
	const entry = entries.get(key);
	if (entry && entry.seq > since && now - entry.sentAt <= withinMs && now >= entry.sentAt) {
		try {
			return structuredClone((await entry.answer) as T);
		} catch {
			return await read();
		}
	}
	const seq = noteOwnRequest(ctx);
	const answer = read();
	const mine: Entry = { seq, sentAt: now, answer };
	entries.set(key, mine);
	// A failed read is never handed out: the caller gets its own error, later ones read again.
	answer.catch(() => {
		if (entries.get(key) === mine) entries.delete(key);
	});
	return structuredClone(await answer);
}
