/**
 * When Skill Tiers reads: once a day, at the first poll from the chosen hour on (in the workflow's
 * time zone), and at once when it has nothing to compare with yet.
 */

const HOUR = 3_600_000;

/** The calendar day and hour of `ms` in `timeZone` (e.g. "2026-11-25", 7). */
function localDayHour(ms: number, timeZone: string): { day: string; hour: number } {
	const parts = new Intl.DateTimeFormat('en-CA', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		hourCycle: 'h23',
	}).formatToParts(new Date(ms));
	const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
	return { day: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/** The day whose read `ms` belongs to: before the hour it still belongs to the day before. */
function readDay(ms: number, hour: number, timeZone: string): string {
	const local = localDayHour(ms, timeZone);
	return local.hour >= hour ? local.day : localDayHour(ms - 24 * HOUR, timeZone).day;
}

/** Whether a read is due now, given the last one (undefined: none yet). */
export function isDue(
	now: number,
	lastRead: number | undefined,
	hour: number,
	timeZone: string,
): boolean {
	if (lastRead === undefined || now < lastRead) return true;
	return readDay(now, hour, timeZone) !== readDay(lastRead, hour, timeZone);
}

/** A time zone Intl knows, else UTC (a workflow's setting may name one this host lacks). */
export function knownTimeZone(timeZone: string): string {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone });
		return timeZone;
	} catch {
		return 'UTC';
	}
}
