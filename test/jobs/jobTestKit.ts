import type { INodeParameters } from 'n8n-workflow';

import {
	ManualClock,
	startSimulator,
	type RunningSimulator,
	type SimulatorOptions,
} from '../../simulator';
import type { RecordedRequest } from '../../simulator';
import { runNode, type RunNodeOptions } from '../../n8n-harness/runNode';

/** A simulator on a ManualClock: jobs move only when a test moves the clock or sets their state. */
export async function bootJobSim(
	options: SimulatorOptions = {},
): Promise<{ sim: RunningSimulator; clock: ManualClock }> {
	const clock = new ManualClock();
	// Every terminal status calls back unless a test asks for the spec's default (completed only).
	const sim = await startSimulator({
		clock,
		jobTimings: { queuedMs: 1000, processingMs: 1000 },
		callbackStatuses: ['completed', 'failed', 'cancelled'],
		...options,
	});
	return { sim, clock };
}

export const MEMBER_EMAIL = (sim: RunningSimulator): string =>
	sim.control.fixtures().members[0].email;

/** Batching for a simulator without rate limits: items in parallel as by default, no pacing. */
export const NO_PACING = { requestsPerMinute: 0, creationsPerMinute: 0 };

/** Create's form with the fast settings tests use (the first poll after 20 ms); `options` are merged. */
export function createParams(sim: RunningSimulator, extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'scenarioJob',
		operation: 'create',
		userEmail: MEMBER_EMAIL(sim),
		prompt: 'A discovery call with a skeptical IT director',
		// These simulators have no rate limits: the 10 creations a minute would only slow the tests.
		batching: NO_PACING,
		...extra,
		options: { firstPollSeconds: 0.02, ...((extra.options as INodeParameters | undefined) ?? {}) },
	};
}

/**
 * Moves the time the node reads (Date.now) forward, as minutes passing would, while real timers keep
 * running: a whole-minute time limit is reached in milliseconds. Undone by `jest.restoreAllMocks()`.
 */
export function shiftableNow(): { advance(ms: number): void } {
	const realNow = Date.now.bind(Date);
	let offset = 0;
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
	return {
		advance(ms: number) {
			offset += ms;
		},
	};
}

export function runJobNode(sim: RunningSimulator, options: Omit<RunNodeOptions, 'credentials'>) {
	return runNode({ ...options, credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey } });
}

export function apiCalls(sim: RunningSimulator): RecordedRequest[] {
	return sim.control.requests({ path: '/scenario-studio/*' });
}

/** Resolves once the simulator has recorded a request matching `test` (polls every 5 ms). */
export async function requestSeen(
	sim: RunningSimulator,
	test: (r: RecordedRequest) => boolean,
	timeoutMs = 20_000,
): Promise<RecordedRequest> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const found = sim.control.requests().find(test);
		if (found) return found;
		if (Date.now() > until) throw new Error('request not seen in time');
		await new Promise((r) => setTimeout(r, 5));
	}
}

/** The ID of the newest job the simulator holds. */
export function lastJobId(sim: RunningSimulator): string {
	const jobs = [...sim.control.store.jobs.values()];
	if (jobs.length === 0) throw new Error('no job created');
	return jobs[jobs.length - 1].id;
}
