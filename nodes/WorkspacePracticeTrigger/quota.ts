import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import type { InputValidator } from '../shared/validate';

/**
 * The read quota, the trigger's one guard on top of Poll Times: a poll reads the service only while
 * the family's Options → Max Reads a Day has a read to spend. Reads refill evenly over 24 hours and
 * up to one day's worth is kept, so a Poll Times that is dense in working hours and sparse at night
 * spends at night's pace by night and faster by day.
 *
 * The first read of a new trigger is at once (it takes the starting point); the next is ready one
 * refill later (as if the first had started early), or an hour later when reads refill slower than
 * that, so a daily Poll Times reads at its next time after the activation rather than a day later.
 * A family may start with more (`startReads`): Practice Results starts with what a night (17:00 to
 * 09:00, 16 hours) refills, so a working-hours Poll Times activated at 09:00 reads at every poll that
 * day (started empty, it read at one poll in three: Session Scored a median 14.3 minutes late, issue
 * 48); the price is up to that many more reads on the activation day with a Poll Times that polls
 * often (Every Minute: 31 more at 48 a day).
 *
 * The quota is kept as one instant (`quotaEmptyAt`, host milliseconds): when it would have been
 * empty. Reads available now = (now − that instant) ÷ (24 h ÷ Max Reads a Day), at most one day's
 * worth; a read spends one. A read may start when 95% of one is back, so a daily Poll Times ("Every
 * Day at 6") reads every day across the 23-hour day of a DST change (the 5% is paid back by the
 * next read: over any span the reads stay within the day's count).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * The trigger's one tolerance for schedules (a read, an open read, a sweep): each may start this part
 * of its interval early, at most a day's part (72 minutes), so a daily Poll Time that comes 23 hours
 * after the last (DST) is on time. For a read it is the part of one read that may still be refilling.
 */
const EARLY = 0.05;

/** Whether a schedule step due at `due`, every `interval` ms, may run at `now`. */
export const isDue = (now: number, due: number, interval: number): boolean =>
	now >= due - EARLY * Math.min(interval, DAY);

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

/**
 * The quota of each trigger in this process, beside the static data: n8n 1.x saves static data only
 * when a poll emits and n8n 2.x drops a failed poll's copy, yet a read that found nothing, or failed,
 * has spent its part.
 */
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

/**
 * Takes back, in this process, the read a poll spent when the poll ran past what n8n allows it: n8n's
 * durable scheduler has then given the poll up and kept nothing of it, its stored quota included, so
 * the read is still to be done. A poll n8n did keep stored its quota in the static data anyway.
 */
export function refundRead(ctx: IPollFunctions, spentAt: number): void {
	if (kept.get(keyOf(ctx)) === spentAt) kept.delete(keyOf(ctx));
}
