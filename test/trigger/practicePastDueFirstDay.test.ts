/**
 * Issue 55, "the first day of a past-due digest": a Practice Results trigger with Assignment Past Due
 * alone (examples/past-due-digest.json: no options, so Hours Between Open Reads 24 and Max Reads a Day
 * 24) activated at 09:00 sent none of that day's past-due events, as its first open read came a day after
 * the starting point. The first open read after a starting point now comes at the end of that day in the
 * workflow's time zone (docs/practice-events.md), so the day's past-due events are sent that day, once,
 * and what was past due before activation never.
 */
import { firstOpenReadAt } from '../../nodes/WorkspacePracticeTrigger/practice/assignments';
import { useRig } from './setup';
import { practiceEventsOf } from './practiceSetup';
import { startVirtualTime } from './budgetStories';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const rig = useRig(-3 * HOUR); // 09:00 UTC on the seed's day (16 March 2026)
afterEach(() => jest.restoreAllMocks());

const control = () => rig.sim.control;
const at = (iso: string) => Date.parse(iso);

describe.each([
	['every minute', 1],
	['every 30 minutes', 30],
])('a past-due digest (Assignment Past Due alone, no options) polled %s', (_, everyMinutes) => {
	test.each([
		['UTC', '2026-03-17T00:00:00Z'],
		['Europe/Berlin', '2026-03-16T23:00:00Z'],
	])(
		'activated at 09:00 (%s): that day sends what fell due after activation, once',
		async (timezone, dayEndIso) => {
			startVirtualTime(rig, 0);
			const cold = control().fixtures().scenarios.coldCall.id;
			const now = () => Date.parse(control().now());
			const activation = now();
			expect(new Date(activation).toISOString()).toBe('2026-03-16T09:00:00.000Z');
			// Past due before activation: history, never sent.
			const before = control().addAssignment({
				userEmail: 'dev@acme.com',
				scenario: cold,
				dueDate: activation - HOUR,
			});
			// Falling due that day: two at 14:00, one at 19:30 (20:30 in Berlin, its day ends at 23:00 UTC).
			const dueAt = [
				at('2026-03-16T14:00:00Z'),
				at('2026-03-16T14:00:00Z'),
				at('2026-03-16T19:30:00Z'),
			];
			const emails = ['jane@acme.com', 'bob@acme.com', 'dev@acme.com'];
			const due = dueAt.map(
				(dueDate, i) =>
					control().addAssignment({ userEmail: emails[i], scenario: cold, dueDate }).id,
			);
			const trigger = rig.harness(
				{
					triggerOn: 'practice',
					practiceEvents: ['assignmentPastDue'],
					practiceFilters: {},
					practiceOptions: {},
				} as never,
				{ persistence: 'staged', workflow: { id: `digest-${timezone}-${everyMinutes}`, timezone } },
			);
			const sent: Array<{ id: string; at: number }> = [];
			// The activation day (its end in the workflow's zone), then the next morning (its open read must not send anything again).
			const dayEnd = at(dayEndIso);
			const until = at('2026-03-17T12:00:00Z');
			while (now() < until) {
				const outcome = await trigger.poll();
				expect(outcome.error).toBeUndefined();
				for (const e of practiceEventsOf(outcome.items)) {
					expect(e.event).toBe('assignmentPastDue');
					sent.push({ id: e.id, at: now() });
				}
				control().advance(everyMinutes * MINUTE);
			}
			const ids = sent.map((s) => s.id);
			expect(ids).not.toContain(before.id);
			expect([...ids].sort()).toEqual([...due].sort());
			for (const s of sent) expect(s.at).toBeLessThan(dayEnd);
			// Each after it fell due.
			for (const s of sent) expect(s.at).toBeGreaterThanOrEqual(dueAt[due.indexOf(s.id)]);
		},
	);
});

describe('firstOpenReadAt: the first open read after a starting point', () => {
	const DAY = 24 * HOUR;
	test('at the end of the day in the time zone, never later than the interval', () => {
		const nine = at('2026-03-16T09:00:00Z');
		expect(firstOpenReadAt(nine, DAY, 'UTC')).toBe(at('2026-03-17T00:00:00Z'));
		expect(firstOpenReadAt(nine, DAY, 'Europe/Berlin')).toBe(at('2026-03-16T23:00:00Z'));
		expect(firstOpenReadAt(nine, DAY, 'America/New_York')).toBe(at('2026-03-17T04:00:00Z'));
		expect(firstOpenReadAt(nine, 6 * HOUR, 'UTC')).toBe(nine + 6 * HOUR);
		expect(firstOpenReadAt(nine, 0, 'UTC')).toBe(nine);
	});
	test('under 3 hours before the day ends: the interval (the next day end is later)', () => {
		const late = at('2026-03-16T22:00:00Z');
		expect(firstOpenReadAt(late, DAY, 'UTC')).toBe(late + DAY);
		expect(firstOpenReadAt(late, 12 * HOUR, 'UTC')).toBe(late + 12 * HOUR);
	});
	test('an unknown time zone: the UTC day', () => {
		expect(firstOpenReadAt(at('2026-03-16T09:00:00Z'), 24 * HOUR, 'Nowhere/Else')).toBe(
			at('2026-03-17T00:00:00Z'),
		);
	});
});
