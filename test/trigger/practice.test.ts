import { startRig, type TriggerRig } from './setup';
import { practiceEventsOf, practiceTrigger } from './practiceSetup';

let rig: TriggerRig;
beforeAll(async () => {
	rig = await startRig();
});
afterAll(async () => rig.close());
beforeEach(() => rig.reset());

const control = () => rig.sim.control;
const HOUR = 3_600_000;

async function pollOk(trigger: Awaited<ReturnType<typeof practiceTrigger>>) {
	const outcome = await trigger.poll();
	expect(outcome.error).toBeUndefined();
	return practiceEventsOf(outcome.items);
}

describe('Session Scored', () => {
	test('a session listed unscored fires once, when it is scored; a late one and a former member’s too', async () => {
		const trigger = await practiceTrigger(rig, ['sessionScored']);
		const unscored = control().addSession({
			userEmail: 'bob@acme.com',
			scenario: 'procurement-discovery',
		});
		expect(await pollOk(trigger)).toEqual([]);
		control().advance(20 * 60_000);
		control().scoreSession(unscored.id, 41);
		const late = control().addSession({
			userEmail: 'hal@acme.com', // left the workspace; the API keeps the sessions
			scenario: 'procurement-discovery',
			score: 77,
			lateByMs: 2 * HOUR,
		});
		const events = await pollOk(trigger);
		expect(events.map((e) => [e.event, e.id])).toEqual([
			['sessionScored', late.id],
			['sessionScored', unscored.id],
		]);
		expect(events[1].record).toMatchObject({ score: 41, rank: expect.any(String) });
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('score filter and feedback: one detail request per event, none for the rest', async () => {
		const trigger = await practiceTrigger(
			rig,
			['sessionScored'],
			{ scoreBelow: 60, exclude_system_users: true },
			{ includeFeedback: true },
		);
		control().addSession({
			userEmail: 'dev@acme.com',
			scenario: 'procurement-discovery',
			score: 35,
		});
		control().addSession({
			userEmail: 'dev@acme.com',
			scenario: 'procurement-discovery',
			score: 90,
		});
		control().addSession({
			userEmail: 'support@exec.com',
			scenario: 'procurement-discovery',
			score: 20,
		});
		control().clearRequests();
		const events = await pollOk(trigger);
		expect(events).toHaveLength(1);
		expect(events[0].record).toMatchObject({
			score: 35,
			constructive_feedback: expect.any(String),
		});
		expect(control().requests({ path: '/sessions/*' })).toHaveLength(1);
		expect(control().requests({ path: '/sessions' })[0].query).toMatchObject({
			exclude_system_users: 'true',
			rank: 'gold,silver,bronze,unranked',
		});
	});

	test('a session older than the window before the newest one is history', async () => {
		const trigger = await practiceTrigger(rig, ['sessionScored'], {}, { lookbackHours: 1 });
		control().addSession({
			userEmail: 'bob@acme.com',
			scenario: 'procurement-discovery',
			score: 50,
		});
		expect(await pollOk(trigger)).toHaveLength(1);
		control().addSession({
			userEmail: 'bob@acme.com',
			scenario: 'procurement-discovery',
			score: 50,
			lateByMs: 2 * HOUR,
		});
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('bad input fails before any request, naming the field and the rule', async () => {
		control().clearRequests();
		const trigger = rig.harness({
			triggerOn: 'practice',
			practiceEvents: ['sessionScored'],
			practiceFilters: { scoreBelow: 40, scoreAtLeast: 60 },
		} as never);
		const outcome = await trigger.poll();
		expect(outcome.error?.message).toMatch(/Score At or Above.*less than Score Below/);
		expect(control().requests()).toHaveLength(0);
	});
});

describe('assignment events', () => {
	test('completed and did-not-pass come from the scoring session, past due from the open read', async () => {
		const fx = control().fixtures();
		const trigger = await practiceTrigger(rig);
		// Bob's in-progress assignment on the discovery call: gold required, 2 of 3..5 attempts made.
		control().addSession({
			userEmail: 'bob@acme.com',
			scenario: fx.scenarios.discoveryCall.id,
			score: 95,
		});
		const first = await pollOk(trigger);
		expect(first.map((e) => e.event)).toEqual(['sessionScored', 'assignmentCompleted']);
		expect(first[1].record).toMatchObject({ status: 'completed', attempt_count: 3 });
		expect(await pollOk(trigger)).toEqual([]);

		// Erin's assignment has no due date; one assigned now to Dev, due in a day, goes past due.
		control().store.data.assignments.push({
			...control().store.data.assignments[4],
			id: 'asg-due-soon',
			userId: control().store.userByEmail('dev@acme.com')!.id,
			dueDate: control().store.stamp(Date.parse(control().now()) + HOUR),
			createdAt: Date.parse(control().now()),
		});
		expect(await pollOk(trigger)).toEqual([]);
		control().advance(2 * HOUR);
		const due = await pollOk(trigger);
		expect(due.map((e) => [e.event, e.id])).toEqual([['assignmentPastDue', 'asg-due-soon']]);
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('one batched assignment read for many scored sessions, not one per session', async () => {
		// The open read is not due (every 6 hours): only the read that looks for completions runs.
		const trigger = await practiceTrigger(rig, ['assignmentCompleted'], {}, { openReadHours: 6 });
		control().simulatePractice({ sessions: 40 });
		control().clearRequests();
		await pollOk(trigger);
		expect(control().requests({ path: '/sessions' })).toHaveLength(1);
		const reads = control().requests({ path: '/scenarios/assignments' });
		expect(reads).toHaveLength(1);
		expect(reads[0].query.status).toBe('completed,did_not_pass');
	});
});
