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
