import { useRig } from './setup';
import { practiceEventsOf, practiceTrigger } from './practiceSetup';

const rig = useRig();

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
		// Their known-open assignments looked up among the finished ones: one request for all of them.
		const reads = control().requests({ path: '/scenarios/assignments' });
		expect(reads).toHaveLength(1);
		expect(reads[0].query.status).toBe('completed,did_not_pass');
	});
});

describe('assignment outcomes the sessions do not show (issue 30)', () => {
	const giveAndFinish = (email: string, scenario: string, extra: Record<string, unknown> = {}) => {
		const a = control().addAssignment({ userEmail: email, scenario, ...extra });
		return control().setAssignmentStatus(a.id, 'completed');
	};

	test('finished by an admin between two assignment reads: sent at the next one, once', async () => {
		const fx = control().fixtures();
		const trigger = await practiceTrigger(rig, ['assignmentCompleted'], {}, { openReadHours: 6 });
		const done = giveAndFinish('dev@acme.com', fx.scenarios.discoveryCall.id);
		expect(await pollOk(trigger)).toEqual([]); // the assignment read is not due yet
		const realNow = Date.now;
		Date.now = () => realNow.call(Date) + 7 * HOUR;
		try {
			const events = await pollOk(trigger);
			expect(events.map((e) => [e.event, e.id])).toEqual([['assignmentCompleted', done.id]]);
			Date.now = () => realNow.call(Date) + 14 * HOUR;
			expect(await pollOk(trigger)).toEqual([]);
		} finally {
			Date.now = realNow;
		}
	});

	test('history stays history: given and finished before activation, practised again after', async () => {
		const fx = control().fixtures();
		const old = giveAndFinish('dev@acme.com', fx.scenarios.discoveryCall.id);
		const trigger = await practiceTrigger(rig, ['assignmentCompleted', 'assignmentDidNotPass']);
		control().addSession({
			userEmail: 'dev@acme.com',
			scenario: fx.scenarios.discoveryCall.id,
			score: 99,
		});
		control().advance(60_000);
		const events = [...(await pollOk(trigger)), ...(await pollOk(trigger))];
		expect(events.map((e) => e.id)).not.toContain(old.id);
	});

	test('a program assignment finished by a session (sessions carry no program) is sent', async () => {
		const fx = control().fixtures();
		const program = fx.programs.salesBootcamp.id;
		const trigger = await practiceTrigger(
			rig,
			['assignmentCompleted'],
			{ program_ids: program },
			{ openReadHours: 6 },
		);
		const a = control().addAssignment({
			userEmail: 'carla@acme.com',
			scenario: fx.scenarios.discoveryCall.id,
			programId: program,
		});
		const realNow = Date.now;
		Date.now = () => realNow.call(Date) + 7 * HOUR; // an assignment read lists it open
		try {
			expect(await pollOk(trigger)).toEqual([]);
			control().addSession({
				userEmail: 'carla@acme.com',
				scenario: fx.scenarios.discoveryCall.id,
				score: 95,
			});
			const events = await pollOk(trigger); // the session's read, not the next assignment read
			expect(events.map((e) => [e.event, e.id])).toEqual([['assignmentCompleted', a.id]]);
		} finally {
			Date.now = realNow;
		}
	});

	test('a filter that matched nothing at activation still sends the outcome, with the session', async () => {
		const fx = control().fixtures();
		const cold = fx.scenarios.coldCall.id; // nobody practised or was given it
		const trigger = await practiceTrigger(
			rig,
			['sessionScored', 'assignmentCompleted'],
			{ scenario_ids: [cold] },
			{ openReadHours: 6 },
		);
		const a = control().addAssignment({ userEmail: 'bob@acme.com', scenario: cold });
		const s = control().addSession({ userEmail: 'bob@acme.com', scenario: cold, score: 80 });
		// Given since the last assignment read and finished by the session: sent by its read (issue 54).
		expect((await pollOk(trigger)).map((e) => [e.event, e.id])).toEqual([
			['sessionScored', s.id],
			['assignmentCompleted', a.id],
		]);
		const realNow = Date.now;
		Date.now = () => realNow.call(Date) + 7 * HOUR; // the next assignment read: not again
		try {
			expect(await pollOk(trigger)).toEqual([]);
		} finally {
			Date.now = realNow;
		}
	});
});
