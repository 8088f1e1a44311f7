/**
 * Issue 56, "a slow service stalls outcomes": with the service answering in 12 s a request, a poll of
 * n8n 2.41's durable scheduler (36 s) holds two requests. The assignment read's finished part and its
 * look-ups of known-open ones gone take more than that; before issue 56 they ran all or nothing, so no
 * Assignment Completed or Did Not Pass came while the service stayed slow. Now each poll moves them on a
 * page: outcomes arrive poll after poll, each once, none lost, under either poller.
 */
import { useRig } from './setup';
import { practiceEventsOf } from './practiceSetup';
import { harnessOptions, startVirtualTime, type Scheduler } from './budgetStories';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PEOPLE = ['jane@acme.com', 'bob@acme.com', 'carla@acme.com', 'dev@acme.com', 'hal@acme.com'];

const rig = useRig();

const control = () => rig.sim.control;

describe.each(['durable', 'cut-emit-only', 'legacy-emit-only'] as Scheduler[])(
	'%s, 12 s a request',
	(scheduler) => {
		test('outcomes arrive poll after poll, none twice, none lost', async () => {
			startVirtualTime(rig, 0);
			const fx = control().fixtures();
			const scenarios = [fx.scenarios.coldCall.id, fx.scenarios.discoveryCall.id];
			const give = (n: number) =>
				Array.from(
					{ length: n },
					(_, i) =>
						control().addAssignment({
							userEmail: PEOPLE[i % PEOPLE.length],
							scenario: scenarios[i % scenarios.length],
						}).id,
				);
			// Given long before the activation (below its cut-off: found by the look-up of those gone) and
			// just before it (found in the finished list since the cut-off).
			const old = give(130);
			control().advance(3 * HOUR);
			const recent = give(130);
			const trigger = rig.harness(
				{
					triggerOn: 'practice',
					practiceEvents: ['assignmentCompleted', 'assignmentDidNotPass'],
					practiceFilters: {},
					// Every read is an assignment read.
					practiceOptions: { maxReadsPerDay: 0, openReadHours: 0 },
				} as never,
				{ ...harnessOptions(scheduler), workflow: { id: `slow-outcomes-${scheduler}` } },
			);
			// The starting point, on a fast service.
			const first = await trigger.poll();
			expect(first.error).toBeUndefined();
			expect(first.items).toEqual([]);

			// 120 finished of each: 2 pages of the finished list since the cut-off, 3 of the look-up.
			const finished = [...old.slice(0, 120), ...recent.slice(0, 120)];
			const expected = finished.map((id, i) => {
				const status = i % 4 === 3 ? 'did_not_pass' : 'completed';
				control().setAssignmentStatus(id, status);
				return `${status === 'completed' ? 'assignmentCompleted' : 'assignmentDidNotPass'} ${id}`;
			});
			rig.slow.latencyMs = 12_000;
			const sent: string[] = [];
			/** Outcomes delivered by each poll. */
			const perPoll: number[] = [];
			for (let poll = 0; poll < 20; poll++) {
				control().advance(MINUTE);
				const outcome = await trigger.poll();
				expect(outcome.error).toBeUndefined();
				const events = practiceEventsOf(outcome.items).map((e) => `${e.event} ${e.id}`);
				sent.push(...events);
				perPoll.push(events.length);
			}
			expect(new Set(sent).size).toBe(sent.length);
			expect([...sent].sort()).toEqual([...expected].sort());
			// Under a 36 s budget a page at a time: several polls delivered some (the legacy poller's five
			// minutes hold the whole read).
			if (scheduler !== 'legacy-emit-only')
				expect(perPoll.filter((n) => n > 0).length).toBeGreaterThan(1);
		}, 120_000);

		test('Past Due alone: the past-due list a page a poll, each once', async () => {
			startVirtualTime(rig, 0);
			const fx = control().fixtures();
			const ids = Array.from(
				{ length: 250 },
				(_, i) =>
					control().addAssignment({
						userEmail: PEOPLE[i % PEOPLE.length],
						scenario: fx.scenarios.coldCall.id,
					}).id,
			);
			const trigger = rig.harness(
				{
					triggerOn: 'practice',
					practiceEvents: ['assignmentPastDue'],
					practiceFilters: {},
					practiceOptions: { maxReadsPerDay: 0, openReadHours: 0 },
				} as never,
				{ ...harnessOptions(scheduler), workflow: { id: `slow-past-due-${scheduler}` } },
			);
			const first = await trigger.poll();
			expect(first.error).toBeUndefined();
			expect(first.items).toEqual([]);
			// 250 past due: 3 pages of the past-due list, 2 requests a poll at 12 s.
			for (const id of ids) control().setAssignmentStatus(id, 'past_due');
			rig.slow.latencyMs = 12_000;
			const sent: string[] = [];
			for (let poll = 0; poll < 10; poll++) {
				control().advance(MINUTE);
				const outcome = await trigger.poll();
				expect(outcome.error).toBeUndefined();
				sent.push(...practiceEventsOf(outcome.items).map((e) => `${e.event} ${e.id}`));
			}
			expect(new Set(sent).size).toBe(sent.length);
			expect([...sent].sort()).toEqual(ids.map((id) => `assignmentPastDue ${id}`).sort());
		}, 120_000);
	},
);
