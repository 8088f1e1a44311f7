/**
 * Reading more often in working hours and rarely outside them, for no more reads a working day than
 * reading evenly every 30 minutes (at the defaults 44 in working hours + 2 at night = 46, against 48;
 * 4 a day at the weekend: 238 a week against 336). Pure: given the schedule, the workflow's time zone and the time, the minimum gap
 * before the next read. The gap that applies is the one of the moment a poll asks, so the first poll
 * of working hours reads at once when the last read is older than the working-hours gap.
 */

export interface WorkingHours {
	/** ISO weekdays that are working days: 1 = Monday … 7 = Sunday. */
	days: number[];
	/** Start and end of the working day in minutes after midnight, local time; end after start. */
	startMinute: number;
	endMinute: number;
	/** Minimum minutes between reads in working hours. */
	workingGapMinutes: number;
	/** Minimum minutes between reads outside them. */
	offHoursGapMinutes: number;
}

export const DEFAULT_WORKING_HOURS: WorkingHours = {
	days: [1, 2, 3, 4, 5],
	startMinute: 9 * 60,
	endMinute: 17 * 60,
	// 11, not 10: 10 would be 48 in working hours + 2 at night = 50, over the evenly schedule's 48.
	workingGapMinutes: 11,
	offHoursGapMinutes: 6 * 60,
};

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** ISO weekday and minute of the day at `now` in `timeZone` (UTC when the zone is unknown). */
export function localTime(timeZone: string, now: number): { weekday: number; minute: number } {
	let format: Intl.DateTimeFormat;
	try {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			weekday: 'short',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
		});
	} catch {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: 'UTC',
			weekday: 'short',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23',
		});
	}
	const parts = Object.fromEntries(
		format.formatToParts(new Date(now)).map((p) => [p.type, p.value]),
	);
	return {
		weekday: WEEKDAYS[parts.weekday] ?? 1,
		minute: (Number(parts.hour) % 24) * 60 + Number(parts.minute),
	};
}

export function inWorkingHours(schedule: WorkingHours, timeZone: string, now: number): boolean {
	const { weekday, minute } = localTime(timeZone, now);
	return (
		schedule.days.includes(weekday) && minute >= schedule.startMinute && minute < schedule.endMinute
	);
}

/** The minimum time between the last read and a read at `now`, in milliseconds. */
export function minGapMs(schedule: WorkingHours, timeZone: string, now: number): number {
	const minutes = inWorkingHours(schedule, timeZone, now)
		? schedule.workingGapMinutes
		: schedule.offHoursGapMinutes;
	return minutes * 60_000;
}

/**
 * Reads in one local day (a working day or not) with n8n polling every minute: what the form states
 * as the schedule's daily cost.
 */
export function readsPerDay(schedule: WorkingHours, workingDay: boolean): number {
	let reads = 0;
	let last = -Infinity;
	// Two days, counting the second, so the first read of the day follows the evening before.
	for (let minute = 0; minute < 2 * 1440; minute++) {
		const local = minute % 1440;
		const working = workingDay && local >= schedule.startMinute && local < schedule.endMinute;
		const gap = working ? schedule.workingGapMinutes : schedule.offHoursGapMinutes;
		if (minute - last >= gap) {
			last = minute;
			if (minute >= 1440) reads++;
		}
	}
	return reads;
}
