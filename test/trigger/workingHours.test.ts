import {
	DEFAULT_WORKING_HOURS,
	inWorkingHours,
	minGapMs,
	readsPerDay,
} from '../../nodes/WorkspacePracticeTrigger/workingHours';
import { readScheduleOptions } from '../../nodes/WorkspacePracticeTrigger/readSchedule';

const at = (iso: string) => Date.parse(iso);

describe('working hours: the gap before the next read, in the workflow time zone', () => {
	test.each([
		// Wednesday 25 November 2026.
		['2026-11-25T14:30:00Z', 'America/New_York', true], // 09:30 in New York
		['2026-11-25T13:59:00Z', 'America/New_York', false], // 08:59
		['2026-11-25T22:00:00Z', 'America/New_York', false], // 17:00, the end is not included
		['2026-11-25T14:30:00Z', 'Asia/Tokyo', false], // 23:30 in Tokyo
		['2026-11-28T15:00:00Z', 'America/New_York', false], // Saturday 10:00
		['2026-11-30T00:30:00Z', 'Asia/Tokyo', true], // Monday 09:30 in Tokyo, Sunday in UTC
	])('%s in %s: working hours %s', (iso, zone, working) => {
		expect(inWorkingHours(DEFAULT_WORKING_HOURS, zone, at(iso))).toBe(working);
		expect(minGapMs(DEFAULT_WORKING_HOURS, zone, at(iso))).toBe((working ? 11 : 360) * 60_000);
	});

	test('an unknown zone counts in UTC', () => {
		expect(inWorkingHours(DEFAULT_WORKING_HOURS, 'Nowhere/Zone', at('2026-11-25T10:00:00Z'))).toBe(
			true,
		);
	});

	test('the daily cost the form states: 46 reads a working day, 4 on other days (evenly every 30 minutes: 48)', () => {
		expect(readsPerDay(DEFAULT_WORKING_HOURS, true)).toBe(46);
		expect(readsPerDay(DEFAULT_WORKING_HOURS, false)).toBe(4);
		expect(
			readsPerDay(
				{ ...DEFAULT_WORKING_HOURS, workingGapMinutes: 30, offHoursGapMinutes: 30 },
				true,
			),
		).toBe(48);
	});

	test("the form's defaults are the schedule's (the linter wants them written as numbers)", () => {
		const field = (name: string) => readScheduleOptions.find((o) => o.name === name)?.default;
		expect(field('workingHoursMinutes')).toBe(DEFAULT_WORKING_HOURS.workingGapMinutes);
		expect(field('offHoursMinutes')).toBe(DEFAULT_WORKING_HOURS.offHoursGapMinutes);
	});
});
