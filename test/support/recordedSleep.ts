/**
 * A stand-in for n8n-workflow's `sleep` that records each pause, moves this process's Date.now by its
 * length and returns at once. The waits plan their reads by Date.now, so a test reads the schedule
 * exactly, and acts at a pause (`onPause`), whatever the machine's load.
 *
 * Use: `jest.mock('n8n-workflow', () => ({ ...jest.requireActual<object>('n8n-workflow'),
 * sleep: jest.requireActual<typeof import('../support/recordedSleep')>('../support/recordedSleep').recordedSleep }))`,
 * then `moveDateNowWithPauses()` and `resetPauses()` in the test's hooks.
 */
export const recorded: {
	/** The pauses asked for, in ms, in order. */
	readonly pauses: number[];
	/** Runs at each pause with the number of pauses so far. */
	onPause?: (count: number) => void;
	/** The sum of all pauses since the module loaded: how far Date.now has moved. */
	skipped: number;
} = { pauses: [], skipped: 0 };

export async function recordedSleep(ms: number): Promise<void> {
	recorded.pauses.push(ms);
	recorded.skipped += ms;
	recorded.onPause?.(recorded.pauses.length);
	// Let the other side (the simulator, a pending request) run before the wait reads again.
	await new Promise((resolve) => setImmediate(resolve));
}

/** Date.now from now on: the real clock plus every pause taken. Undone by jest.restoreAllMocks. */
export function moveDateNowWithPauses(): void {
	const realNow = Date.now.bind(Date);
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + recorded.skipped);
}

/** Forgets the pauses and the `onPause` of the test before. */
export function resetPauses(): void {
	recorded.pauses.length = 0;
	recorded.onPause = undefined;
}
