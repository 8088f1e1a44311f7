import { sleep } from 'n8n-workflow';

import type { Deadline } from './deadline';
import { keyDigest } from './keyDigest';

/**
 * Keeps one credential's requests inside the service's sliding minute limits, shared by every run in
 * this process (other processes: `apiRequest`'s 429 handling). A request holds its place from its send
 * to a minute after its answer, so whatever the latency the next one cannot land in the same minute.
 */

export interface PaceLimits {
	/** Requests a minute on this key; 0 turns pacing off. */
	requestsPerMinute: number;
	/** Job and studio-session creations a minute on this key; 0 turns pacing of creations off. */
	creationsPerMinute: number;
}

/** Webhooks must answer at once, pick-lists while a user waits; most families send a few requests. */
export const UNPACED: PaceLimits = { requestsPerMinute: 0, creationsPerMinute: 0 };

/** The deployed service's limits per workspace (not in the spec). */
export const SERVICE_LIMITS: PaceLimits = { requestsPerMinute: 60, creationsPerMinute: 10 };

/**
 * Every trigger poll's pace (family.ts): triggers on one key share its minute, so two reading at once
 * (or Skill Tiers' burst of proficiency reads, Practice's feedback reads) spread over minutes instead of
 * meeting 429s, leaving a sixth of the minute to workflows this process may not see.
 */
export const POLL_PACE: PaceLimits = { requestsPerMinute: 50, creationsPerMinute: 0 };

/** A minute, and a second more: the service stamps requests to the second. */
const WINDOW_MS = 61_000;

/** Paths whose POST is a creation under the service's creation limit. */
const CREATION_PATHS = new Set(['/scenario-studio', '/scenario-studio/jobs']);

export function isCreation(method: string, path: string): boolean {
	return method === 'POST' && CREATION_PATHS.has(path);
}

/** A place in a window until a minute after its answer (Infinity while in flight). */
interface Slot {
	until: number;
}

class Window {
	private slots: Slot[] = [];

	/** How long to wait before one more fits under `limit`, 0 when it fits now. */
	waitMs(limit: number, now: number): number {
		// A clock stepped back (NTP, a test's virtual time): no answered place is held past a minute from now.
		for (const slot of this.slots)
			if (slot.until !== Infinity) slot.until = Math.min(slot.until, now + WINDOW_MS);
		this.slots = this.slots.filter((slot) => slot.until > now);
		if (this.slots.length < limit) return 0;
		// Every slot is busy: the earliest to free decides (an in-flight one frees only on its answer).
		const soonest = Math.min(...this.slots.map((slot) => slot.until));
		return Number.isFinite(soonest) ? soonest - now : IN_FLIGHT_POLL_MS;
	}

	take(): Slot {
		const slot = { until: Infinity };
		this.slots.push(slot);
		return slot;
	}
}

/** While every slot is held by a request still in flight, look again this often. */
const IN_FLIGHT_POLL_MS = 100;

interface KeyState {
	requests: Window;
	creations: Window;
}

const byKey = new Map<string, KeyState>();

function stateFor(baseUrl: string, apiKey: string): KeyState {
	const id = keyDigest(baseUrl, apiKey);
	const state = byKey.get(id) ?? { requests: new Window(), creations: new Window() };
	byKey.set(id, state);
	return state;
}

/** Forgets every key's minute, as a new process starts: for tests, each on a quiet key. */
export function forgetPaces(): void {
	byKey.clear();
}

/** Waits for a place in the credential's minute; returns what to call once the answer is in. */
export async function paceRequest(
	limits: PaceLimits,
	credential: { baseUrl: string; apiKey: string },
	creation: boolean,
	deadline?: Deadline,
): Promise<() => void> {
	const paced = (
		[
			['requests', limits.requestsPerMinute],
			['creations', creation ? limits.creationsPerMinute : 0],
		] as const
	).filter(([, limit]) => limit > 0);
	if (paced.length === 0) return () => {};
	const state = stateFor(credential.baseUrl, credential.apiKey);
	for (;;) {
		const now = Date.now();
		const wait = Math.max(...paced.map(([name, limit]) => state[name].waitMs(limit, now)));
		if (wait <= 0) break;
		// A poll does not wait for a place it could not use before its deadline.
		if (deadline && !deadline.allows(now, wait)) throw deadline.refuse();
		await sleep(wait);
	}
	const slots = paced.map(([name]) => state[name].take());
	return () => {
		const until = Date.now() + WINDOW_MS;
		for (const slot of slots) slot.until = until;
	};
}
