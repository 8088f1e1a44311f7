import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import type { InputValidator } from '../shared/validate';
import type { WorkingHours } from './workingHours';
import { minGapMs } from './workingHours';

/**
 * The trigger's read interval: whether a poll reads at all. It skips whole polls, so the daily quota
 * (1,000 requests a workspace) lasts; transport/pacer.ts is another thing: it spaces the requests a
 * read (or any node) does send, to the service's per-minute limits.
 *
 * How often the trigger reads the service, whatever the poll schedule. n8n polls every minute by
 * default; the service allows 1,000 requests a day per workspace, so reads are spaced out: at 30
 * minutes an idle trigger with every event spends at most 2 requests a read, 96 a day.
 */
export const DEFAULT_MIN_READ_MINUTES = 30;

/** Every family's Options → Minutes Between Reads; `description` says what a read costs there. */
export const minReadMinutesOption = (description: string): INodeProperties => ({
	displayName: 'Minutes Between Reads',
	name: 'minReadMinutes',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 1440, numberPrecision: 0 },
	default: DEFAULT_MIN_READ_MINUTES,
	description,
});

/** The option's value from a family's Options collection, checked. */
export const readMinReadMinutes = (check: InputValidator, options: IDataObject): number =>
	check.intRange(
		'Options → Minutes Between Reads',
		options.minReadMinutes ?? DEFAULT_MIN_READ_MINUTES,
		0,
		1440,
	);

/**
 * When this process last read for a trigger. n8n saves a trigger's static data only when a poll emits,
 * so the time of a read that found nothing is also kept here (polls run in the same process).
 */
const lastReads = new Map<string, number>();

function keyOf(ctx: IPollFunctions): string {
	return `${String(ctx.getWorkflow().id)}:${ctx.getNode().id}`;
}

/** The last read known from either place, in host milliseconds (only differences are used). */
function lastRead(ctx: IPollFunctions, staticData: IDataObject): number | undefined {
	const saved = typeof staticData.readAt === 'number' ? staticData.readAt : undefined;
	const kept = lastReads.get(keyOf(ctx));
	if (saved === undefined) return kept;
	return kept === undefined ? saved : Math.max(saved, kept);
}

/**
 * The minimum time between reads now: Minutes Between Reads, or the working-hours schedule's
 * gap at this moment in the workflow's time zone (workingHours.ts).
 */
export function readGapMs(
	ctx: IPollFunctions,
	settings: { minReadMinutes: number; schedule?: WorkingHours },
): number {
	return settings.schedule
		? minGapMs(settings.schedule, ctx.getTimezone(), Date.now())
		: settings.minReadMinutes * 60_000;
}

/** Whether this poll may read: the minimum time since the last read has passed. */
export function mayRead(ctx: IPollFunctions, staticData: IDataObject, gapMs: number): boolean {
	const last = lastRead(ctx, staticData);
	return last === undefined || Date.now() - last >= gapMs || Date.now() < last;
}

/** Notes a read that starts now (a failed read counts too: retrying every minute would spend the quota). */
export function noteRead(ctx: IPollFunctions): number {
	const now = Date.now();
	lastReads.set(keyOf(ctx), now);
	return now;
}
