/**
 * Issue 47: the trigger's reads under n8n's poll budget against a slow service, in virtual time
 * (slowService.ts: every request takes the latency the test sets, on Date.now and on the simulator's
 * clock). The poll harness emulates n8n 2.41's durable scheduler (`pollTimeoutMs`: 45 s, budget 36 s)
 * where a test says so, and starts polls together as the legacy poller does when a read runs long.
 */
import { durableBudgetMs } from '../../n8n-harness/pollHarness';
import { eventsOf, startRig, type TriggerRig } from './setup';

let rig: TriggerRig;
beforeAll(async () => {
	rig = await startRig();
});
afterAll(async () => rig.close());
beforeEach(() => rig.reset());

const control = () => rig.sim.control;

describe('the test support', () => {
	test("n8n 2.41's durable scheduler answers 36 s for its 45 s timeout", () => {
		expect(durableBudgetMs(45_000)).toBe(36_000);
		// The timeout raised past the lease: the lease bounds it.
		expect(durableBudgetMs(90_000)).toBe(48_000);
	});

	test('each request takes the virtual latency on both clocks; the wall clock is not waited on', async () => {
		const trigger = rig.harness({ events: ['pageCreated'] });
		rig.slow.start(10_000);
		const [host, service] = [Date.now(), rig.clock.now()];
		const outcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		const sent = rig.slow.sent;
		expect(sent).toBeGreaterThan(0);
		expect(Date.now() - host).toBeGreaterThanOrEqual(sent * 10_000);
		expect(Date.now() - host).toBeLessThan(sent * 10_000 + 5_000);
		expect(rig.clock.now() - service).toBe(sent * 10_000);
	});

	test('a poll longer than the timeout is abandoned: nothing emitted, nothing committed, late requests counted', async () => {
		const trigger = rig.harness(
			{ events: ['pageCreated'] },
			{ pollTimeoutMs: 45_000, pollBudgetMs: 10 * 60_000 },
		);
		await trigger.poll();
		const before = trigger.stored;
		for (let i = 0; i < 450; i++) control().createPage({ title: `Late ${i}` });
		rig.slow.start(10_000);
		// A budget n8n would not give (10 minutes under a 45 s timeout): the read overruns.
		const outcome = await trigger.poll();
		expect(outcome).toMatchObject({ abandoned: true, emitted: false, items: [] });
		expect(trigger.stored).toEqual(before);
		expect(trigger.sentAfterAbandon).toBeGreaterThan(0);
		expect(eventsOf(outcome.items)).toEqual([]);
	});
});
