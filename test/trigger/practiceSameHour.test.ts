/**
 * Issue 54, "Outcomes the same hour": an assignment given since the last assignment read and finished by
 * a scored session is sent by the read that lists the session, not at the next open read (Hours Between
 * Open Reads, 24 by default). Each story of the table, with the trigger's defaults otherwise; the
 * open read is never due again within these stories, so only the fast path can send the outcome.
 */
import type { INodeProperties } from 'n8n-workflow';

import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';
import { useRig } from './setup';
import { practiceEventsOf, practiceTrigger, PRACTICE_EVENTS } from './practiceSetup';

const rig = useRig();

const control = () => rig.sim.control;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The form's default: the next open read is a day away. */
const DEFAULTS = { openReadHours: 24 };

async function pollOk(trigger: Awaited<ReturnType<typeof practiceTrigger>>) {
	const outcome = await trigger.poll();
	expect(outcome.error).toBeUndefined();
	return practiceEventsOf(outcome.items).map((e) => [e.event, e.id]);
}

describe('an assignment given since the last open read, finished by a session', () => {
	test('given, completed by a session 10 minutes later: sent with the session', async () => {
		const fx = control().fixtures();
		const trigger = await practiceTrigger(rig, PRACTICE_EVENTS, {}, DEFAULTS);
		control().advance(30 * MINUTE);
		const a = control().addAssignment({
			userEmail: 'dev@acme.com',
			scenario: fx.scenarios.coldCall.id,
		});
		control().advance(10 * MINUTE);
		const s = control().addSession({
			userEmail: 'dev@acme.com',
			scenario: fx.scenarios.coldCall.id,
			score: 95,
		});
		expect(await pollOk(trigger)).toEqual([
			['sessionScored', s.id],
			['assignmentCompleted', a.id],
		]);
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('with Filters → Programs: the program assignment is sent with the session', async () => {
		const fx = control().fixtures();
		const program = fx.programs.salesBootcamp.id;
		const trigger = await practiceTrigger(
			rig,
			['assignmentCompleted', 'assignmentDidNotPass'],
			{ program_ids: program },
			DEFAULTS,
		);
		control().advance(HOUR);
		const a = control().addAssignment({
			userEmail: 'carla@acme.com',
			scenario: fx.scenarios.coldCall.id,
			programId: program,
		});
		// Another program's assignment on the same scenario stays out.
		control().addAssignment({
			userEmail: 'carla@acme.com',
			scenario: fx.scenarios.coldCall.id,
			programId: fx.programs.q1Onboarding.id,
		});
		control().advance(10 * MINUTE);
		control().addSession({
			userEmail: 'carla@acme.com',
			scenario: fx.scenarios.coldCall.id,
			score: 90,
		});
		expect(await pollOk(trigger)).toEqual([['assignmentCompleted', a.id]]);
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('completed by a session scored late: sent with the session, when its score shows', async () => {
		const fx = control().fixtures();
		const trigger = await practiceTrigger(rig, PRACTICE_EVENTS, {}, DEFAULTS);
		control().advance(20 * MINUTE);
		const a = control().addAssignment({
			userEmail: 'bob@acme.com',
			scenario: fx.scenarios.coldCall.id,
		});
		control().advance(5 * MINUTE);
		const s = control().addSession({
			userEmail: 'bob@acme.com',
			scenario: fx.scenarios.coldCall.id,
		});
		expect(await pollOk(trigger)).toEqual([]);
		control().advance(40 * MINUTE);
		control().scoreSession(s.id, 88);
		expect(await pollOk(trigger)).toEqual([
			['sessionScored', s.id],
			['assignmentCompleted', a.id],
		]);
	});

	test('Filters → Scenarios on a scenario nobody practised or was given at activation', async () => {
		const fx = control().fixtures();
		const cold = fx.scenarios.coldCall.id;
		const trigger = await practiceTrigger(
			rig,
			['sessionScored', 'assignmentCompleted'],
			{ scenario_ids: [cold] },
			DEFAULTS,
		);
		control().advance(HOUR);
		const a = control().addAssignment({ userEmail: 'bob@acme.com', scenario: cold });
		control().advance(10 * MINUTE);
		const s = control().addSession({ userEmail: 'bob@acme.com', scenario: cold, score: 80 });
		expect(await pollOk(trigger)).toEqual([
			['sessionScored', s.id],
			['assignmentCompleted', a.id],
		]);
	});

	test('did not pass: the attempts used up by the session are sent with it', async () => {
		const fx = control().fixtures();
		const trigger = await practiceTrigger(rig, ['assignmentDidNotPass'], {}, DEFAULTS);
		control().advance(HOUR);
		const a = control().addAssignment({
			userEmail: 'dev@acme.com',
			scenario: fx.scenarios.coldCall.id,
			rankMin: 'gold',
			attemptMax: 1,
		});
		control().addSession({
			userEmail: 'dev@acme.com',
			scenario: fx.scenarios.coldCall.id,
			score: 20,
		});
		expect(await pollOk(trigger)).toEqual([['assignmentDidNotPass', a.id]]);
	});

	test.each([5_000, 30_000, 3 * MINUTE, 10 * MINUTE])(
		'the service’s clock stepping back %i ms between reads: sent with the session',
		async (stepMs) => {
			const fx = control().fixtures();
			const trigger = await practiceTrigger(
				rig,
				['assignmentCompleted', 'assignmentDidNotPass'],
				{},
				DEFAULTS,
			);
			control().advance(30 * MINUTE);
			expect(await pollOk(trigger)).toEqual([]);
			control().setTime(Date.parse(control().now()) - stepMs);
			const a = control().addAssignment({
				userEmail: 'jane@acme.com',
				scenario: fx.scenarios.coldCall.id,
			});
			control().advance(10 * MINUTE);
			control().addSession({
				userEmail: 'jane@acme.com',
				scenario: fx.scenarios.coldCall.id,
				score: 92,
			});
			expect(await pollOk(trigger)).toEqual([['assignmentCompleted', a.id]]);
		},
	);

	test('history stays history: an assignment finished before activation, practised again after', async () => {
		const fx = control().fixtures();
		const old = control().addAssignment({
			userEmail: 'dev@acme.com',
			scenario: fx.scenarios.coldCall.id,
		});
		control().setAssignmentStatus(old.id, 'completed');
		const trigger = await practiceTrigger(rig, PRACTICE_EVENTS, {}, DEFAULTS);
		control().advance(10 * MINUTE);
		const s = control().addSession({
			userEmail: 'dev@acme.com',
			scenario: fx.scenarios.coldCall.id,
			score: 99,
		});
		expect(await pollOk(trigger)).toEqual([['sessionScored', s.id]]);
	});

	test('an admin’s finish with no session still waits for the open read (Hours Between Open Reads)', async () => {
		const fx = control().fixtures();
		const trigger = await practiceTrigger(rig, ['assignmentCompleted'], {}, DEFAULTS);
		control().advance(HOUR);
		const a = control().addAssignment({
			userEmail: 'dev@acme.com',
			scenario: fx.scenarios.coldCall.id,
		});
		control().setAssignmentStatus(a.id, 'completed');
		expect(await pollOk(trigger)).toEqual([]);
	});
});

describe('cost of a read (issue 54: the fast path adds nothing to a read with no new session)', () => {
	// With Groups, Session Scored reads the group's sessions and the completions every session (a group
	// does not filter assignments; session rows do not name groups): two session reads (docs).
	test.each([
		['no filter', false, 1],
		['Filters → Groups', true, 2],
	] as const)('idle, every event, %s', async (name, withGroups, expected) => {
		const fx = control().fixtures();
		const filters = withGroups ? { group_ids: [fx.groups.sales.id] } : {};
		const trigger = await practiceTrigger(rig, PRACTICE_EVENTS, filters, DEFAULTS);
		for (let read = 0; read < 3; read++) {
			control().advance(30 * MINUTE);
			control().clearRequests();
			expect(await pollOk(trigger)).toEqual([]);
			expect(control().requests()).toHaveLength(expected);
		}
		process.stdout.write(`idle read, every event, ${name}: ${expected} request(s)\n`);
	});

	test('a read with one new session of a person with no known open assignment: one look-up', async () => {
		const fx = control().fixtures();
		const trigger = await practiceTrigger(rig, PRACTICE_EVENTS, {}, DEFAULTS);
		control().advance(30 * MINUTE);
		control().addSession({
			userEmail: 'jane@acme.com',
			scenario: fx.scenarios.coldCall.id,
			score: 50,
		});
		control().clearRequests();
		await pollOk(trigger);
		const lookUps = control().requests({ path: '/scenarios/assignments' });
		expect(lookUps).toHaveLength(1);
		expect(lookUps[0].query).toMatchObject({ status: 'completed,did_not_pass' });
		expect(control().requests({ path: '/sessions' })).toHaveLength(1);
	});
});

describe('the form says what Hours Between Open Reads still delays (issue 54)', () => {
	const properties = new WorkspacePracticeTrigger().description.properties;
	const options = properties.find((p) => p.name === 'practiceOptions')
		?.options as INodeProperties[];
	const openReads = options.find((o) => o.name === 'openReadHours');

	test('shown only when an assignment event is chosen', () => {
		expect(openReads?.displayOptions).toEqual({
			show: {
				'/practiceEvents': ['assignmentCompleted', 'assignmentDidNotPass', 'assignmentPastDue'],
			},
		});
	});

	test('it delays Past Due and an admin’s outcome, not an outcome a scored session shows', () => {
		expect(openReads?.description).toMatch(
			/delays what no scored session shows: Assignment Past Due, and an outcome set by an admin/,
		);
		expect(openReads?.description).toMatch(/does not delay an outcome a scored session shows/);
	});

	test('Max Reads a Day says what applies when unset and what adding it sets', () => {
		const maxReads = options.find((o) => o.name === 'maxReadsPerDay');
		expect(maxReads?.default).toBe(48);
		expect(maxReads?.description).toMatch(
			/Unset: 48 with Session Scored, else 24\. Adding this option sets 48/,
		);
	});
});
