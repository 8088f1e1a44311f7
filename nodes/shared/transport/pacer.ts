import { sleep } from 'n8n-workflow';

import type { Deadline } from './deadline';
import { OutOfTime } from './deadline';
import { keyDigest } from './keyDigest';

/**
 * Keeps one credential's requests inside the service's minute limits, so a run alone on its key never
 * meets a 429. The limits are sliding windows of one minute; a request counts from the moment it is
 * sent until a minute after its answer came back (the service saw it somewhere in between), so the
 * next one in its place can never land inside the same minute, whatever the latency.
 *
 * The state lives in this module: every execution of every node in one n8n process that uses the same
 * base URL and key shares it. It cannot be shared across processes (queue-mode workers, several mains):
 * there each process paces its own share, and the 429 handling in `apiRequest` covers the rest.
 */

export interface PaceLimits {
	/** Requests a minute on this key; 0 turns pacing off. */
	requestsPerMinute: number;
	/** Job and studio-session creations a minute on this key; 0 turns pacing of creations off. */
	creationsPerMinute: number;
}

/** No pacing: webhooks, pick-lists and the trigger's families that send a few requests a read. */
export const UNPACED: PaceLimits = { requestsPerMinute: 0, creationsPerMinute: 0 };

/** The deployed service's limits per workspace (the spec does not show them; the service answers them). */
export const SERVICE_LIMITS: PaceLimits = { requestsPerMinute: 60, creationsPerMinute: 10 };

/**
 * A Skill Tiers read keeps to 50 requests a minute: its burst of proficiency reads (up to 150 in a read
 * at 2,000 members × 80 skills, the scale bench's two 429s) spreads over minutes instead of meeting the
 * service's 429, and leaves a sixth of the minute to the workspace's other workflows, whose requests
 * this process may not see. The other families' reads are a few requests and stay unpaced.
 */
export const POLL_PACE: PaceLimits = { requestsPerMinute: 50, creationsPerMinute: 0 };

/** A minute, and a second more: the service stamps requests to the second. */
const WINDOW_MS = 61_000;

/** Paths whose POST is a creation under the service's creation limit. */
const CREATION_PATHS = new Set(['/scenario-studio', '/scenario-studio/jobs']);

export function isCreation(method: string, path: string): boolean {
	return method === 'POST' && CREATION_PATHS.has(path);
}

/** One slot in a window: from its send to a minute after its answer (Infinity while in flight). */
interface Slot {
	until: number;
}

class Window {
	private slots: Slot[] = [];

	/** How long to wait before one more fits under `limit`, 0 when it fits now. */
	waitMs(limit: number, now: number): number {
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

/** The key itself is never kept: a digest of base URL and key names the credential. */
function stateFor(baseUrl: string, apiKey: string): KeyState {
	const id = keyDigest(baseUrl, apiKey);
	let state = byKey.get(id);
	if (!state) {
		state = { requests: new Window(), creations: new Window() };
		byKey.set(id, state);
	}
	return state;
}

/**
 * Waits until one more request (and creation, when it is one) fits in this credential's minute under
 * `limits` (the run's, run.ts), takes its place, and returns the function to call once its answer (or
 * failure) is in. The action node's runs and Skill Tiers' reads (POLL_PACE) are paced; a trigger's
 * deliveries must answer at once (a callback held back a minute is a callback lost), and pick-lists are
 * read while a user waits.
 */
export async function paceRequest(
	limits: PaceLimits,
	credential: { baseUrl: string; apiKey: string },
	creation: boolean,
	deadline?: Deadline,
): Promise<() => void> {
	const pacedRequests = limits.requestsPerMinute > 0;
	const pacedCreations = creation && limits.creationsPerMinute > 0;
	if (!pacedRequests && !pacedCreations) return () => {};
	const state = stateFor(credential.baseUrl, credential.apiKey);
	for (;;) {
		const now = Date.now();
		const wait = Math.max(
			pacedRequests ? state.requests.waitMs(limits.requestsPerMinute, now) : 0,
			pacedCreations ? state.creations.waitMs(limits.creationsPerMinute, now) : 0,
		);
		if (wait <= 0) break;
		// A poll does not wait for a place it could not use before its deadline.
		if (deadline && !deadline.allows(now, wait)) throw new OutOfTime();
		await sleep(wait);
	}
	const slots = [
		...(pacedRequests ? [state.requests.take()] : []),
		...(pacedCreations ? [state.creations.take()] : []),
	];
	return () => {
		const until = Date.now() + WINDOW_MS;
		for (const slot of slots) slot.until = until;
	};
}
