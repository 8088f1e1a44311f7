import type { ManualClock } from '../../simulator';

/**
 * A virtual slow service for engine tests: every request the trigger sends through the rig's proxy
 * takes `latencyMs` of virtual time, so a poll's deadline is reached after a known number of requests
 * and no test waits on the wall clock. Time moves in two places at once: this process's Date.now (what
 * the node and the poll harness read) and the simulator's ManualClock (what the service stamps and
 * rate-limits by). The move happens when the proxy receives the request, before the simulator answers
 * it: the node sees the answer arrive `latencyMs` after it sent the request.
 *
 * Sleeps (the transport's 429 and retry waits) move the same virtual time when a test mocks
 * n8n-workflow's `sleep` with `virtualSleep`:
 * `jest.mock('n8n-workflow', () => ({ ...jest.requireActual<object>('n8n-workflow'), sleep:
 * jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep }))`.
 */
export const virtualTime: {
	/** How far Date.now has been moved past the real clock. */
	offsetMs: number;
	/** The simulator's clock, moved with Date.now (set by `SlowService.start`). */
	clock?: ManualClock;
} = { offsetMs: 0 };

/** Moves Date.now and the simulator's clock forward together. */
export function advanceVirtualTime(ms: number): void {
	if (ms <= 0) return;
	virtualTime.offsetMs += ms;
	virtualTime.clock?.advance(ms);
}

/** n8n-workflow's `sleep` in virtual time: it moves both clocks by `ms` and returns at once. */
export async function virtualSleep(ms: number): Promise<void> {
	advanceVirtualTime(ms);
	// Let the other side (the simulator, a pending request) run before the caller reads the clock.
	await new Promise((resolve) => setImmediate(resolve));
}

export class SlowService {
	/** Virtual time each request takes (0: the service answers at once and time stands still). */
	latencyMs = 0;
	/** Requests received since `start`. */
	sent = 0;
	private spy?: jest.SpyInstance<number, []>;

	constructor(private readonly clock: ManualClock) {}

	/** From now on Date.now runs on virtual time, and each request takes `latencyMs`. */
	start(latencyMs: number): this {
		this.latencyMs = latencyMs;
		this.sent = 0;
		virtualTime.clock = this.clock;
		if (!this.spy) {
			const realNow = Date.now.bind(Date);
			this.spy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + virtualTime.offsetMs);
		}
		return this;
	}

	/** Called by the proxy for each request it receives: the request takes its virtual time. */
	requestReceived(): void {
		if (!this.spy) return;
		this.sent++;
		advanceVirtualTime(this.latencyMs);
	}

	/** Back to the real clock (the offset is kept: the next start goes on from it, never backwards). */
	stop(): void {
		this.spy?.mockRestore();
		this.spy = undefined;
		this.latencyMs = 0;
		if (virtualTime.clock === this.clock) virtualTime.clock = undefined;
	}
}
