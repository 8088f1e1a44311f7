import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import type { InputValidator } from '../shared/validate';

/**
 * The read quota on top of Poll Times (Options → Max Reads a Day): reads refill evenly over 24 hours,
 * up to a day's worth kept. The first read is at once; the next one refill later, or an hour when that
 * is sooner. A family may start with more (`startReads`: Practice Results with a night's worth, so
 * working-hours Poll Times activated at 09:00 read at every poll, issue 48). Kept as one instant
 * (`quotaEmptyAt`): when it would have been empty. A read may start when 95% of one is back, so a
 * daily Poll Times reads every day across a 23-hour DST day; the next read pays it back.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The part of an interval a scheduled step (read, open read, sweep) may start early, at most 72 min. */
const EARLY = 0.05;

/** Whether a schedule step due at `due`, every `interval` ms, may run at `now`. */
export const isDue = (now: number, due: number, interval: number): boolean =>
	now >= due - EARLY * Math.min(interval, DAY);

/**
 * When the step after one due at `due` and done at `now` is due: an interval after `due`, so a step
 * started early (`isDue`) or late does not move the schedule (from `now` it crept up to 72 min earlier
 * a day). From `now` when there was no due instant to keep: 0 (forced early), or more than half an
 * interval away (a step that late, as after n8n was down, is not followed by the next one within half
 * an interval; or the host clock set back).
 */
export const nextDue = (now: number, due: number, interval: number): number =>
	due > 0 && Math.abs(now - due) <= interval / 2 ? due + interval : now + interval;

/**
 * Whether a step of `nextDue`'s schedule may run at `now`: when due (`isDue`), or at once when it is due
 * further ahead than `nextDue` sets it after an early start (the host clock set back, or the interval
 * shortened).
 */
export const isDueOnSchedule = (now: number, due: number, interval: number): boolean =>
	isDue(now, due, interval) || now < due - interval - EARLY * Math.min(interval, DAY);

/** Every family's Options → Max Reads a Day; `description` says what a read of the family costs. */
export const maxReadsOption = (defaultReads: number, description: string): INodeProperties => ({
	displayName: 'Max Reads a Day',
	name: 'maxReadsPerDay',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 1440, numberPrecision: 0 },
	default: defaultReads,
	description,
});

/** The option's value from a family's Options collection, checked (0: every poll reads). */
export const readMaxReads = (
	check: InputValidator,
	options: IDataObject,
	defaultReads: number,
): number =>
	check.intRange('Options → Max Reads a Day', options.maxReadsPerDay ?? defaultReads, 0, 1440);

/** Each trigger's quota in this process too: n8n 1.x saves static data only when a poll emits. */
const kept = new Map<string, number>();

const keyOf = (ctx: IPollFunctions): string =>
	`${String(ctx.getWorkflow().id)}:${ctx.getNode().id}`;

/** Reads available at `now`, or undefined when none was ever spent (or the host clock went back a day). */
function available(ctx: IPollFunctions, staticData: IDataObject, perDay: number, now: number) {
	const saved = typeof staticData.quotaEmptyAt === 'number' ? staticData.quotaEmptyAt : undefined;
	const inMemory = kept.get(keyOf(ctx));
	const emptyAt =
		saved === undefined ? inMemory : inMemory === undefined ? saved : Math.max(saved, inMemory);
	if (emptyAt === undefined) return undefined;
	const reads = Math.min(perDay, ((now - emptyAt) * perDay) / DAY);
	return reads < -1 ? undefined : reads;
}

/** Whether a poll at `now` may read (Max Reads a Day 0: always). */
export function mayRead(
	ctx: IPollFunctions,
	staticData: IDataObject,
	perDay: number,
	now: number,
): boolean {
	if (perDay === 0) return true;
	const reads = available(ctx, staticData, perDay, now);
	return reads === undefined || reads >= 1 - EARLY;
}

/**
 * Spends one read at `now` (a read that fails spends it too: retrying at every poll would spend the
 * day's requests). Returns the instant to store as `quotaEmptyAt`, undefined without a quota.
 */
export function spendRead(
	ctx: IPollFunctions,
	staticData: IDataObject,
	perDay: number,
	now: number,
	startReads?: number,
): number | undefined {
	if (perDay === 0) {
		kept.delete(keyOf(ctx));
		return undefined;
	}
	const refill = DAY / perDay;
	const reads = available(ctx, staticData, perDay, now);
	// A first read: the next is ready an hour later at most (or a refill, when that is sooner), and a
	// family that starts with more reads (`startReads`) has them.
	const first = now - Math.max(-EARLY * refill, (1 - EARLY) * refill - HOUR);
	const emptyAt =
		reads === undefined
			? Math.min(first, now - ((startReads ?? 0) - 1) * refill)
			: now - (reads - 1) * refill;
	kept.set(keyOf(ctx), emptyAt);
	return emptyAt;
}

/** Takes back the read of a poll that ran past its budget: n8n's durable scheduler kept nothing of it. */
export function refundRead(ctx: IPollFunctions, spentAt: number): void {
	if (kept.get(keyOf(ctx)) === spentAt) kept.delete(keyOf(ctx));
}
