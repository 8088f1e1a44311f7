/**
 * Issue 55: one read's sweep spends at most its share of the day (SWEEP_REQUESTS_A_READ, 100 requests)
 * from the first night after activation. Then no skill keeps a member yet (the activation read only
 * records its instant), and a skill's first sweep reads its pages and, as of its reference, the members
 * it did not know who practised since (100 a request, across pages): here no one practised since, so 11
 * pages a skill at 1,000-odd members with a tier in each of 12 skills (costed 13: a tenth of the
 * members held back). Before the fix every skill was costed one page: 283 requests at Sweep Every 1.
 * Counted in requests through the simulator, on its clock (the poll's pace moves it).
 */
import type { IDataObject } from 'n8n-workflow';

import { PollHarness } from '../../n8n-harness/pollHarness';
import { useSweepWorkspace } from './sweepWorkspace';
import { SWEEP_REQUESTS_A_READ } from '../../nodes/WorkspacePracticeTrigger/skillTiers/sweep';

// A pause (the poll's pacing to 50 requests a minute) moves the simulated clock instead of passing.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => ws.clock.advance(ms),
}));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MEMBERS = 1000;
const SKILLS = 12;

const ws = useSweepWorkspace(MEMBERS, SKILLS, 55);

test.each([
	// [case, Sweep Every (Days), hours from activation to the first night's read]
	['every skill due (Sweep Every 1, a day later)', 1, 24],
	["the form's default Sweep Every 7, at 23:00 the activation day", 7, 14],
])("the first night's sweep keeps to the share: %s", async (_, sweepDays, hours) => {
	const trigger = new PollHarness({
		parameters: {
			triggerOn: 'skillTiers',
			skillTierEvents: ['tierChanged'],
			skillTierOptions: { sweepDays },
		},
		credentials: { baseUrl: ws.sim.baseUrl, apiKey: ws.sim.apiKey },
		workflow: { id: `share-${sweepDays}`, name: 'Tier alerts' },
	});
	const activation = await trigger.poll();
	expect(activation.error).toBeUndefined();
	ws.clock.advance(hours * HOUR);
	ws.sim.control.clearRequests();
	// The read, carried on at polls a minute apart until done (no request once done).
	for (let poll = 0; poll < 60; poll++) {
		const outcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		if ((trigger.stored as IDataObject).continues !== true) break;
		ws.clock.advance(MINUTE);
	}
	expect((trigger.stored as IDataObject).continues).not.toBe(true);
	// No session since the activation: every proficiency request is the sweep's.
	const sweep = ws.sim.control.requests().filter((r) => r.path.endsWith('/proficiency')).length;
	const swept = Object.values((trigger.stored as IDataObject).s as Record<string, number[]>).filter(
		([, sweptAt]) => sweptAt > 0,
	).length;
	process.stdout.write(`sweep share ${JSON.stringify({ sweepDays, sweep, swept })}\n`);
	expect(swept).toBeGreaterThan(0);
	expect(sweep).toBeLessThanOrEqual(SWEEP_REQUESTS_A_READ);
});
