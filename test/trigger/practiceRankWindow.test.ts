/**
 * Issue 39, story 8: Session Scored with Filters → Rank gold, Lookback Hours 1, a read at most every
 * 60 minutes, polled every 29 minutes, n8n 1.x saving static data only when a poll emits. A gold
 * session scored 116 minutes after its created_at, the newest gold session listed, must be emitted
 * once, though a silver one created since (more than Lookback Hours after it) was read in between: the
 * window of a Rank-filtered Session Scored ends at the newest session of the chosen ranks.
 */
import { startRig, type TriggerRig } from './setup';
import { practiceEventsOf, practiceTrigger } from './practiceSetup';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: async () => {} }));

const MINUTE = 60_000;
/** The read schedule of the story: Minutes Between Reads 60 then, Max Reads a Day 24 (a read an hour) now. */
const SCHEDULE = { maxReadsPerDay: 24 };
const POLL_EVERY_MINUTES = 29;

let rig: TriggerRig;
// The trigger paces on the host's clock: a host clock that moves with the story.
const realNow = Date.now;
let host = Date.parse('2026-11-25T00:00:00Z');
beforeAll(async () => {
	rig = await startRig();
	Date.now = () => host;
});
afterAll(async () => {
	Date.now = realNow;
	await rig.close();
});
beforeEach(() => rig.reset());

test('a gold session listed 116 minutes after its created_at is emitted once, after a newer silver one was read', async () => {
	const control = rig.sim.control;
	const trigger = await practiceTrigger(
		rig,
		['sessionScored'],
		{ rank: ['gold'] },
		{ ...SCHEDULE, lookbackHours: 1 },
		'emit-only',
	);
	const emitted: string[] = [];
	let gold = '';
	let silver = '';
	for (let minute = 1; minute <= 8 * 60; minute++) {
		control.advance(MINUTE);
		host += MINUTE;
		// Practised at minute 10, scored (gold) 116 minutes later.
		if (minute === 10)
			gold = control.addSession({
				userEmail: 'jane@acme.com',
				scenario: 'procurement-discovery',
			}).id;
		// A silver session created 70 minutes after the gold one, read before the gold one is scored.
		if (minute === 80)
			silver = control.addSession({
				userEmail: 'bob@acme.com',
				scenario: 'procurement-discovery',
				score: 80,
			}).id;
		if (minute === 126) control.scoreSession(gold, 96);
		if (minute % POLL_EVERY_MINUTES !== 0) continue;
		const outcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		emitted.push(...practiceEventsOf(outcome.items).map((e) => e.id));
	}
	expect(silver).not.toBe('');
	expect(emitted).toEqual([gold]);
});
