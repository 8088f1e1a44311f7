/**
 * Job creation whose answer is lost after the request went out (the simulator does the work, then
 * cuts the connection): what the item says, and `is_new` when the transport's retry finds the job.
 * And the poll schedule when First Poll After is 0, read from the pauses the node asks for (n8n's
 * `sleep` is replaced by one that records them and returns at once), not from the wall clock.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { RunningSimulator } from '../../simulator';
import { nextDelay } from '../../nodes/shared/scenarioJob/wait';
import { apiCalls, bootJobSim, createParams, lastJobId, runJobNode } from './jobTestKit';
import { moveDateNowWithPauses, recorded, resetPauses } from '../support/recordedSleep';

/** The node's pauses are recorded and skipped, moving Date.now: see recordedSleep. */
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('../support/recordedSleep')>('../support/recordedSleep')
		.recordedSleep,
}));
moveDateNowWithPauses();
const { pauses } = recorded;

let sim: RunningSimulator;
beforeAll(async () => {
	({ sim } = await bootJobSim({ jobTimings: { queuedMs: 0, processingMs: 0 } }));
});
afterAll(async () => await sim.close());
beforeEach(() => {
	sim.control.reset();
	resetPauses();
});

const posts = () => apiCalls(sim).filter((r) => r.method === 'POST');
const createOff = (options: INodeParameters) =>
	runJobNode(sim, { parameters: createParams(sim, { waitForCompletion: 'off', options }) });

describe('a lost answer to a job creation', () => {
	it('with Request ID None: the job may exist, how to check, not "check the Base URL"', async () => {
		sim.control.dropNext(1);
		const { error } = await createOff({ requestIdMode: 'none' });
		// Not retried (no key), yet the service made the job.
		expect(posts()).toHaveLength(1);
		expect(sim.control.store.jobs.size).toBe(1);
		expect(error?.message).toMatch(/^No answer from 127\.0\.0\.1:\d+ \(/);
		expect(error?.description).toMatch(/the change may have been made on the service/);
		expect(error?.description).toMatch(/Scenario → Get Many/);
		expect(error?.description).not.toMatch(/Base URL/);
	});

	it('with the derived Request ID: the retry finds the job this call made, is_new true', async () => {
		sim.control.dropNext(1);
		const { error, items } = await createOff({});
		expect(error).toBeUndefined();
		expect(posts()).toHaveLength(2);
		expect(sim.control.store.jobs.size).toBe(1);
		expect(items[0].json.id).toBe(lastJobId(sim));
		expect(items[0].json.is_new).toBe(true);
	});

	it('with a custom Request ID an earlier run used: the job existed before, is_new false', async () => {
		const options = { requestIdMode: 'custom', requestId: 'weekly-import-42' };
		const first = await createOff(options);
		expect(first.items[0].json.is_new).toBe(true);
		sim.control.dropNext(1);
		const again = await createOff(options);
		expect(posts()).toHaveLength(3);
		expect(sim.control.store.jobs.size).toBe(1);
		expect(again.items[0].json.id).toBe(first.items[0].json.id);
		expect(again.items[0].json.is_new).toBe(false);
	});
});

describe('First Poll After 0', () => {
	it('reads at once, then no more often than once a second', async () => {
		sim.control.setJobTimings({ queuedMs: 0, processingMs: 0, hold: true });
		// The job ends during the second pause: reads at once, then 1 s and 2 s later.
		recorded.onPause = () => {
			if (pauses.length === 2) sim.control.setJobState(lastJobId(sim), 'completed');
		};
		const { error } = await runJobNode(sim, {
			parameters: createParams(sim, { options: { firstPollSeconds: 0 } }),
		});
		expect(error).toBeUndefined();
		// A schedule doubling from 1 ms would have asked for 1, 2, 4 ms. (A pause is planned from
		// Date.now, so the few real milliseconds a read takes come off it.)
		expect(pauses).toHaveLength(2);
		expect(pauses[0]).toBeGreaterThan(500);
		expect(pauses[0]).toBeLessThanOrEqual(1000);
		expect(pauses[1]).toBeGreaterThan(1500);
		expect(pauses[1]).toBeLessThanOrEqual(2000);
		expect(apiCalls(sim).filter((r) => r.method === 'GET')).toHaveLength(3);
	});

	it('the pauses: at least 1 s, doubling, at most 60 s', () => {
		const pauses = [0];
		for (let n = 0; n < 8; n++) pauses.push(nextDelay(pauses[pauses.length - 1]));
		expect(pauses).toEqual([0, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
		expect(nextDelay(20)).toBe(1000);
		expect(nextDelay(5000)).toBe(10000);
	});
});
