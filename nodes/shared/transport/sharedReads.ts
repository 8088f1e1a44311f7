import type { IDataObject } from 'n8n-workflow';

/**
 * Reads shared within one n8n process: identical GETs (same base URL and key, path and query) made
 * within a short window by several triggers or nodes are sent once, and every caller gets its own copy
 * of the one answer. Opt-in per call site (`share` on the request).
 *
 * Why a shared answer keeps a trigger's exactly-once: it is the answer the caller would have had by
 * reading a few seconds earlier, and the table keeps only the newest request per query, so no caller
 * is ever handed an answer older than one this process already had for the same query. A trigger's
 * cursor moves on the service's timestamps, never on this host's clock, so reading a little earlier
 * only leaves changes for its next read. Not for a read that checks whether a list moved since the
 * caller's own previous read of it (it must reach the service), nor for writes.
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
	sentAt: number;
	/** The answer as it came, never handed out itself: each caller gets a copy. */
	answer: Promise<unknown>;
}

const entries = new Map<string, Entry>();

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
	key: string,
	share: ShareRead,
	read: () => Promise<T>,
): Promise<T> {
	const now = Date.now();
	prune(now);
	const withinMs = Math.min(Math.max(0, share.withinMs), MAX_SHARE_MS);
	const entry = entries.get(key);
	if (entry && now - entry.sentAt <= withinMs && now >= entry.sentAt) {
		try {
			return structuredClone((await entry.answer) as T);
		} catch {
			return await read();
		}
	}
	const answer = read();
	const mine: Entry = { sentAt: now, answer };
	entries.set(key, mine);
	// A failed read is never handed out: the caller gets its own error, later ones read again.
	answer.catch(() => {
		if (entries.get(key) === mine) entries.delete(key);
	});
	return structuredClone(await answer);
}
