/**
 * The daily open read of Practice Results did not stay at its time: `isDue` lets it start up to 5% of
 * Hours Between Open Reads early (72 minutes for 24 h), and the next was due 24 h after that early
 * start, so with Poll Times polling often it came up to 72 minutes earlier every day (a past-due
 * digest's evening moved into the working day). The next open read is now due one interval after the
 * finished one was due (quota.ts `nextDue`).
 */
import { isDueOnSchedule, nextDue } from '../../nodes/WorkspacePracticeTrigger/quota';
import { useRig } from './setup';
import { startVirtualTime } from './budgetStories';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const rig = useRig(-3 * HOUR); // 09:00 UTC on the seed's day (16 March 2026)
afterEach(() => jest.restoreAllMocks());

const control = () => rig.sim.control;

describe('the daily open read of a past-due digest (Assignment Past Due alone, no options)', () => {
	test('polled every 30 minutes for 6 days, it stays at its time of day', async () => {
		startVirtualTime(rig, 0);
		const now = () => Date.parse(control().now());
		const activation = now();
		expect(new Date(activation).toISOString()).toBe('2026-03-16T09:00:00.000Z');
		const trigger = rig.harness(
			{
				triggerOn: 'practice',
				practiceEvents: ['assignmentPastDue'],
				practiceFilters: {},
				practiceOptions: {},
			} as never,
			{ persistence: 'staged', workflow: { id: 'open-read-drift', timezone: 'UTC' } },
		);
		const until = activation + 6 * DAY + 12 * HOUR;
		while (now() < until) {
			const outcome = await trigger.poll();
			expect(outcome.error).toBeUndefined();
			control().advance(30 * MINUTE);
		}
		// Each open read's first page (Past Due alone reads the past-due list only; no finished list).
		const reads = control()
			.requests({ path: '/scenarios/assignments' })
			.filter((r) => !String(r.query.status).includes('completed'))
			.filter((r) => r.query.page === undefined || r.query.page === '1')
			.map((r) => Date.parse(r.at));
		// The starting point at activation, then the first open read at the day's end (issue 55).
		expect(reads[0]).toBe(activation);
		const [first, ...later] = reads.slice(1);
		const dayEnd = Date.parse('2026-03-17T00:00:00Z');
		expect(first).toBeGreaterThanOrEqual(dayEnd - 72 * MINUTE);
		expect(first).toBeLessThanOrEqual(dayEnd + 30 * MINUTE);
		// One a day after it, each within 72 minutes early (isDue) and a poll late: no drift.
		const offsets = later.map((at, i) => (at - (first + (i + 1) * DAY)) / MINUTE);
		expect(offsets.filter((offset) => offset < -72 || offset > 30)).toEqual([]);
		expect(later).toHaveLength(5);
	});
});

describe('nextDue: when the step after one due at `due` and done at `now` is due', () => {
	const DUE = Date.parse('2026-03-17T00:00:00Z');
	test.each([
		['72 minutes early (as early as isDue lets it): the schedule kept', -72 * MINUTE, DUE + DAY],
		['a minute early', -MINUTE, DUE + DAY],
		['on time', 0, DUE + DAY],
		['30 minutes late: the schedule kept', 30 * MINUTE, DUE + DAY],
		['12 hours late (half the interval): still the schedule', 12 * HOUR, DUE + DAY],
		[
			'23 hours late (n8n was down): from now, not again within the hour',
			23 * HOUR,
			DUE + 47 * HOUR,
		],
		['more than an interval late: from now', DAY + MINUTE, DUE + 2 * DAY + MINUTE],
		['more than an interval early (the host clock set back): from now', -DAY - HOUR, DUE - HOUR],
	])('%s', (_, late, expected) => {
		expect(nextDue(DUE + late, DUE, DAY)).toBe(expected);
	});
	test('forced early (0, no due instant): an interval from now', () => {
		expect(nextDue(DUE, 0, DAY)).toBe(DUE + DAY);
		expect(nextDue(DUE + 5 * HOUR, 0, 6 * HOUR)).toBe(DUE + 11 * HOUR);
	});
	test('isDueOnSchedule: due from 72 minutes early, and at once when the clock was set back', () => {
		expect(isDueOnSchedule(DUE - 73 * MINUTE, DUE, DAY)).toBe(false);
		expect(isDueOnSchedule(DUE - 72 * MINUTE, DUE, DAY)).toBe(true);
		expect(isDueOnSchedule(DUE + DAY, DUE, DAY)).toBe(true);
		expect(isDueOnSchedule(DUE - DAY - 72 * MINUTE, DUE, DAY)).toBe(false);
		expect(isDueOnSchedule(DUE - DAY - 73 * MINUTE, DUE, DAY)).toBe(true);
		// Hours Between Open Reads lowered from 24 to 1: the read due in a day comes at once.
		expect(isDueOnSchedule(DUE - 20 * HOUR, DUE, HOUR)).toBe(true);
	});
	test('Hours Between Open Reads 0: every poll', () => {
		expect(nextDue(DUE, DUE, 0)).toBe(DUE);
		expect(nextDue(DUE + MINUTE, DUE, 0)).toBe(DUE + MINUTE);
	});
	test('an early start, 72 minutes every day for a week, does not add up', () => {
		let due = DUE;
		for (let day = 0; day < 7; day++) {
			const now = due - 72 * MINUTE;
			expect(isDueOnSchedule(now, due, DAY)).toBe(true);
			due = nextDue(now, due, DAY);
			// Due more than a day ahead now, yet not taken for a clock set back: no second read at once.
			expect(isDueOnSchedule(now + 30 * MINUTE, due, DAY)).toBe(false);
		}
		expect(due).toBe(DUE + 7 * DAY);
	});
});
