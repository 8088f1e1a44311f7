import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ManualClock, SEED_NOW, startSimulator, type RunningSimulator } from '../../simulator';
import { PollHarness, type PollHarnessOptions } from '../../n8n-harness/pollHarness';
import { forgetPaces } from '../../nodes/shared/transport/pacer';
import { forgetReads } from '../../nodes/WorkspacePracticeTrigger/readGuard';
import { FaultProxy } from './faultProxy';
import { SlowService } from './slowService';

export interface TriggerRig {
	sim: RunningSimulator;
	clock: ManualClock;
	proxy: FaultProxy;
	/**
	 * The service's virtual latency: `rig.slow.start(10_000)` makes each request take 10 s of Date.now
	 * and of the simulator's clock (slowService.ts); `reset` turns it off.
	 */
	slow: SlowService;
	/** A trigger whose requests go through the proxy to the simulator. */
	harness(
		parameters: INodeParameters,
		options?: Omit<PollHarnessOptions, 'parameters' | 'credentials'>,
	): PollHarness;
	/**
	 * Back to the seed, the clock at `SEED_NOW + offsetMs`, sources held until the test settles them,
	 * timestamps in whole seconds as the deployed service writes them.
	 */
	reset(offsetMs?: number): void;
	close(): Promise<void>;
}

export async function startRig(): Promise<TriggerRig> {
	const clock = new ManualClock(SEED_NOW);
	const sim = await startSimulator({
		clock,
		sourceTimings: { pendingMs: 0, processingMs: 0, hold: true },
	});
	const proxy = await new FaultProxy(sim.baseUrl).start();
	const slow = new SlowService(clock);
	const harnesses: PollHarness[] = [];
	// Each request: first judged against the polls in flight (sent after one was abandoned?), then
	// it takes its virtual time.
	proxy.observe(() => {
		for (const harness of harnesses) harness.requestSent();
		slow.requestReceived();
	});
	return {
		sim,
		clock,
		proxy,
		slow,
		harness: (parameters, options = {}) => {
			const harness = new PollHarness({
				parameters,
				credentials: { baseUrl: proxy.baseUrl, apiKey: sim.apiKey },
				...options,
			});
			harnesses.push(harness);
			return harness;
		},
		reset(offsetMs = 60_000) {
			sim.control.reset();
			sim.control.setTimestampPrecision('second');
			sim.control.setSourceTimings({ pendingMs: 0, processingMs: 0, hold: true });
			sim.control.setTime(SEED_NOW + offsetMs);
			proxy.onRequest(undefined);
			slow.stop();
			harnesses.length = 0;
			// Each test on a quiet key: every poll is paced per key, and the minute outlives a test.
			forgetPaces();
			forgetReads();
		},
		async close() {
			await proxy.close();
			await sim.close();
		},
	};
}

export interface EmittedEvent {
	event: string;
	id: string;
	record: Record<string, unknown>;
}

/** The items of a poll as (event, id) pairs, in emitted order. */
export function eventsOf(items: INodeExecutionData[]): EmittedEvent[] {
	return items.map(({ json }) => {
		const record = (json.page ?? json.source) as Record<string, unknown>;
		return { event: String(json.event), id: String(record.id), record };
	});
}

/**
 * A rig for a whole test file: started before its tests, reset before each (the service fast again,
 * the clock at `SEED_NOW + offsetMs`), closed after. The object is filled in `beforeAll`: use it
 * inside tests and hooks only.
 */
export function useRig(offsetMs?: number): TriggerRig {
	const rig = {} as TriggerRig;
	beforeAll(async () => {
		Object.assign(rig, await startRig());
	});
	afterAll(async () => {
		rig.slow.stop();
		await rig.close();
	});
	beforeEach(() => rig.reset(offsetMs));
	return rig;
}
