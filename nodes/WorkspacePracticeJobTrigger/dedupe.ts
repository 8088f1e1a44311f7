export interface DedupeState {
	/** `<job id>:<status>` → when it was first delivered (ms), oldest first. */
	recentDeliveries?: Record<string, number>;
}

/** At most this many deliveries are remembered, so static data stays small. */
export const DEDUPE_CAP = 500;

/**
 * Whether this job+status was already delivered within the window; records it if not. Kept in the
 * workflow's static data so the memory survives between deliveries without holding anything in RAM.
 */
export function seenRecently(
	state: DedupeState,
	key: string,
	now: number,
	windowMs: number,
): boolean {
	const recent: Record<string, number> = {};
	for (const [k, at] of Object.entries(state.recentDeliveries ?? {})) {
		if (now - at < windowMs) recent[k] = at;
	}
	const seen = key in recent;
	if (!seen) recent[key] = now;
	const keys = Object.keys(recent);
	for (const old of keys.slice(0, Math.max(0, keys.length - DEDUPE_CAP))) delete recent[old];
	state.recentDeliveries = recent;
	return seen;
}

/** Deliveries this process has let through, across every Job Trigger it serves: `<scope>|<key>` → ms. */
const claimedHere = new Map<string, number>();

/** Entries kept in memory for all workflows of the process together; the oldest go first. */
export const CLAIMED_CAP = 10_000;

/**
 * Whether this process already let this delivery through within the window; claims it if not.
 *
 * n8n hands every delivery its own copy of the workflow's static data and saves it after the trigger
 * answers, so two deliveries handled at the same time both miss each other there. This claim is
 * taken synchronously in the one process, so of concurrent duplicates one passes. Deliveries that
 * reach different processes (several webhook processes behind a load balancer) only meet in static
 * data, as before.
 */
export function alreadyClaimed(scope: string, key: string, now: number, windowMs: number): boolean {
	const id = `${scope}|${key}`;
	const at = claimedHere.get(id);
	if (at !== undefined && now - at < windowMs) return true;
	claimedHere.delete(id);
	claimedHere.set(id, now);
	if (claimedHere.size > CLAIMED_CAP) {
		for (const [old, when] of claimedHere) {
			if (claimedHere.size <= CLAIMED_CAP && now - when < windowMs) break;
			claimedHere.delete(old);
		}
	}
	return false;
}
