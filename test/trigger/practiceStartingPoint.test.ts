/**
 * Issue 54, "a failed read right after a new starting point": the starting point (a new activation, or
 * stored state lost) is one instant for sessions and assignments. A read right after it that fails (the
 * service's 5xx, a lost connection, 429 for the minute or the day) or is cut by the poll's budget keeps
 * it: nothing from before it is sent, and what happens after it comes on time. Under both of n8n's
 * pollers: n8n 2.x's durable scheduler (36 s a poll, staged static data) and the legacy poller with
 * n8n 1.x's static data saved only when a poll emits.
 */
import { useRig } from './setup';
import { PRACTICE_EVENTS, practiceEventsOf } from './practiceSetup';
import { harnessOptions, startVirtualTime, type Scheduler } from './budgetStories';
import { RETRY } from '../../nodes/shared/transport/retryPolicy';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const rig = useRig();

const control = () => rig.sim.control;

type Fault = '503' | 'lost connection' | '429 minute' | '429 day' | 'none';

function inject(fault: Fault): void {
	if (fault === '503') control().failNext(RETRY.maxAttempts, 503);
	if (fault === 'lost connection') control().dropNext(RETRY.maxAttempts);
	if (fault === '429 minute') control().setRateLimits({ perMinute: 1 });
	if (fault === '429 day') control().setRateLimits({ perDay: 1 });
}
function clear(): void {
	control().failNext(0);
	control().dropNext(0);
	control().setRateLimits(null);
}

/** Every event, the form's defaults (a read every 30 minutes at most, open reads every 24 hours). */
const params = (filters: Record<string, unknown>, options: Record<string, unknown>) =>
	({
		triggerOn: 'practice',
		practiceEvents: [...PRACTICE_EVENTS],
		practiceFilters: filters,
		practiceOptions: options,
	}) as never;

describe.each([
	['durable', 12_000],
	['legacy-emit-only', 0],
	['cut-emit-only', 12_000],
	['legacy-staged', 0],
] as Array<[Scheduler, number]>)('%s (%i ms a request)', (scheduler, latencyMs) => {
	test.each([
		['503', {}, {}],
		['lost connection', { exclude_system_users: true }, {}],
		['429 minute', {}, { includeFeedback: true }],
		['429 day', { exclude_system_users: true }, {}],
		['none', {}, { includeFeedback: true }],
	] as Array<[Fault, Record<string, unknown>, Record<string, unknown>]>)(
		'state lost, then a read that fails (%s): no history, and what follows on time',
		async (fault, storyFilters, options) => {
			// At 12 s a request the first poll (36 s) holds two requests: Exclude System Users' second session
			// read leaves the open list to the next poll, so an assignment finished before it is history
			// (docs/practice-events.md, "Restart with empty state"). Those stories run on the legacy poller.
			const filters = latencyMs > 0 ? {} : storyFilters;
			// Date.now is the service's clock: the quota and the open reads' schedule move with the story.
			startVirtualTime(rig, 0);
			const fx = control().fixtures();
			const cold = fx.scenarios.coldCall.id;
			// History: a session sent by the workflow before its state was lost, an open assignment.
			const old = rig.harness(params(filters, options), {
				...harnessOptions(scheduler),
				workflow: { id: `w-${scheduler}` },
			});
			const soon = control().addAssignment({
				userEmail: 'dev@acme.com',
				scenario: cold,
				dueDate: Date.parse(control().now()) + 2 * HOUR,
			});
			const given = control().addAssignment({ userEmail: 'jane@acme.com', scenario: cold });
			expect((await old.poll()).error).toBeUndefined();
			control().advance(10 * MINUTE);
			const before = control().addSession({ userEmail: 'bob@acme.com', scenario: cold, score: 70 });
			control().advance(MINUTE);
			rig.slow.latencyMs = latencyMs;
			// The state is lost (a re-import): a new starting point, read at once.
			const trigger = rig.harness(params(filters, options), {
				...harnessOptions(scheduler),
				workflow: { id: `w-${scheduler}` },
			});
			const sent: string[] = [];
			const pollAt = async (fail: Fault = 'none') => {
				inject(fail);
				const outcome = await trigger.poll();
				clear();
				for (const e of practiceEventsOf(outcome.items)) sent.push(`${e.event} ${e.id}`);
				return outcome;
			};
			await pollAt();
			await pollAt(fault);
			// After the starting point: a session finishing Jane's assignment, one given and finished the
			// same hour, and Dev's assignment going past due (2 h after it was given).
			control().advance(5 * MINUTE);
			const janes = control().addSession({ userEmail: 'jane@acme.com', scenario: cold, score: 95 });
			let fresh = '';
			let hals = '';
			/** The poll (5 minutes each) at which Hal's session was scored, and the one that sent its outcome. */
			let halsAt = -1;
			let halsSentAt = -1;
			// Poll Times every 5 minutes for 27 hours (the quota lets a read through every 30 minutes; a read
			// the budget cut goes on at the next poll); the open read 24 h after the start sees the past due.
			for (let poll = 0; poll < 27 * 12; poll++) {
				control().advance(5 * MINUTE);
				if (poll === 12) {
					// An hour later, once the starting point is read whatever the scheduler: given and finished.
					fresh = control().addAssignment({ userEmail: 'hal@acme.com', scenario: cold }).id;
					control().advance(10 * MINUTE);
					hals = control().addSession({ userEmail: 'hal@acme.com', scenario: cold, score: 95 }).id;
					halsAt = poll;
				}
				await pollAt();
				if (halsSentAt < 0 && sent.includes(`assignmentCompleted ${fresh}`)) halsSentAt = poll;
			}
			// Within one read (30 minutes: 6 polls) of the session, not at the next open read.
			expect(halsSentAt - halsAt).toBeLessThanOrEqual(6);
			expect(sent.filter((e) => e.endsWith(before.id))).toEqual([]);
			expect(sent).toEqual(
				expect.arrayContaining([
					`sessionScored ${janes.id}`,
					`assignmentCompleted ${given.id}`,
					`sessionScored ${hals}`,
					`assignmentCompleted ${fresh}`,
					`assignmentPastDue ${soon.id}`,
				]),
			);
			expect(new Set(sent).size).toBe(sent.length);
		},
		120_000,
	);
});
