/**
 * Issues 55 and 56: every trigger poll keeps to one per-key pace (family.ts starts each poll's run on
 * POLL_PACE), so two trigger workflows on one credential reading in the same minute share the key's
 * minute instead of drawing a 429 from the service (60 requests a minute per workspace). Virtual time
 * (slowService.ts): the pacer's waits and the answers move Date.now and the simulator's clock together.
 */
import type { PollHarness } from '../../n8n-harness/pollHarness';
import { eventsOf, startRig, type TriggerRig } from './setup';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

let rig: TriggerRig;
beforeAll(async () => {
	rig = await startRig();
});
afterAll(async () => rig.close());
beforeEach(() => rig.reset());

const control = () => rig.sim.control;

async function activated(): Promise<PollHarness> {
	const trigger = rig.harness({ events: ['pageCreated'] });
	expect((await trigger.poll()).error).toBeUndefined();
	return trigger;
}

test('two Knowledge Hub triggers on one key read 3,000 new pages in the same minute: no 429, every page once each', async () => {
	const [a, b] = [await activated(), await activated()];
	const ids: string[] = [];
	for (let i = 0; i < 3_000; i++) {
		// Fewer than a list page a second: the newest second comes with the rest (no wait for it).
		if (i % 75 === 0) control().advance(1000);
		ids.push(control().createPage({ title: `Shared ${i}` }).id);
	}
	// Each read lists 30 pages and more: 60 and more requests together, over the service's minute.
	control().setRateLimits(true);
	rig.slow.start(200);
	const [first, second] = await Promise.all([a.poll(), b.poll()]);
	for (const outcome of [first, second]) {
		expect(outcome.error).toBeUndefined();
		expect(eventsOf(outcome.items).map((e) => e.id)).toEqual(ids);
	}
	const refused = control()
		.requests({})
		.filter((request) => request.status === 429);
	expect(refused).toEqual([]);
	expect(control().rateLimitUsage().dayRejected).toBe(0);
	expect(rig.slow.sent).toBeGreaterThan(60);
});
