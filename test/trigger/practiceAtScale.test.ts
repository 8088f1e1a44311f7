/**
 * Practice Results at 2,000 members (issue 48): 25,000 assignments, 5,000 open and 500 past due.
 * Every assignment change the simulator logs after activation (completed, did_not_pass, and past_due
 * still past due when judged) must be sent once, judged per assignment ID against the simulator's own
 * assignment log. Before the fix the trigger kept at most 5,000 known-open assignments and cut the rest
 * at its second assignment read: an assignment cut there that finished, or went past due, later was
 * taken for history and never sent (46 of 811 in the bench's day at this size). The bench plays that
 * whole day (`npm run bench -- --practice-scale-only`); this is the same size with a few reads.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { ManualClock, SEED_NOW, startSimulator, type RunningSimulator } from '../../simulator';
import { PollHarness } from '../../n8n-harness/pollHarness';
import { PRACTICE_EVENTS, practiceEventsOf } from './practiceSetup';
import { moveDateNowWithPauses } from '../support/recordedSleep';

// The assignment reads keep to 50 requests a minute: a pause moves Date.now instead of passing.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('../support/recordedSleep')>('../support/recordedSleep')
		.recordedSleep,
}));

const MINUTE = 60_000;
const EVENT_OF: Record<string, string> = {
	completed: 'assignmentCompleted',
	did_not_pass: 'assignmentDidNotPass',
	past_due: 'assignmentPastDue',
};

let sim: RunningSimulator;
let clock: ManualClock;

beforeAll(async () => {
	moveDateNowWithPauses();
	clock = new ManualClock(SEED_NOW);
	sim = await startSimulator({ clock, dataSize: { members: 2000 } });
});
afterAll(async () => {
	jest.restoreAllMocks();
	await sim.close();
});

test('at 2,000 members and 5,500 open assignments, every logged assignment change is sent once', async () => {
	const control = sim.control;
	control.fillPractice({ sessions: 2000, assignments: 25000, open: 5000, pastDue: 500 });
	const store = control.store;
	const trigger = new PollHarness({
		parameters: {
			triggerOn: 'practice',
			practiceEvents: [...PRACTICE_EVENTS],
			// Every poll reads, the assignments too: the day's reads in a few polls.
			practiceOptions: { maxReadsPerDay: 0, openReadHours: 0 },
		},
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
	});
	const sent: string[] = [];
	const poll = async () => {
		clock.advance(10 * MINUTE);
		const outcome = await trigger.poll();
		if (outcome.error) throw outcome.error;
		const items: INodeExecutionData[] = outcome.items;
		for (const e of practiceEventsOf(items))
			if (e.event !== 'sessionScored') sent.push(`${e.id}|${e.event}`);
	};
	await poll(); // activation: the starting point
	expect(sent).toEqual([]);
	const logStart = control.assignmentLog().length;
	await poll(); // the first assignment read after it (where 500 known-open ones were cut)

	// Open ones spread over the whole open list (not started and past due): every 40th finishes by a
	// session (95: completed), every 40th from the 20th goes past due (its due date passes).
	const open = store.data.assignments.filter(
		(a) => a.status === 'not_started' || a.status === 'past_due',
	);
	for (const [i, a] of open.entries()) {
		if (i % 40 === 20 && a.status === 'not_started') a.dueDate = Date.parse(control.now()) + MINUTE;
		if (i % 40 !== 0) continue;
		const user = store.userById(a.userId)!;
		control.addSession({ userEmail: user.email, scenario: a.scenarioId, score: 95 });
	}
	clock.advance(2 * MINUTE);
	control.assignmentLog(); // the due dates passed: past_due now
	await poll();
	await poll();

	const statusOf = new Map(store.data.assignments.map((a) => [a.id, a.status]));
	const expected = new Set<string>();
	for (const c of control.assignmentLog().slice(logStart))
		if (c.to !== 'past_due' || statusOf.get(c.id) === 'past_due')
			if (c.to in EVENT_OF) expected.add(`${c.id}|${EVENT_OF[c.to]}`);
	expect(expected.size).toBeGreaterThan(250);
	const missed = [...expected].filter((key) => !sent.includes(key));
	const unexpected = sent.filter((key) => !expected.has(key));
	const duplicates = sent.filter((key, i) => sent.indexOf(key) !== i);
	expect({ missed, unexpected, duplicates }).toEqual({
		missed: [],
		unexpected: [],
		duplicates: [],
	});
});
