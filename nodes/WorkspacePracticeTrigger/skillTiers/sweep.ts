import { isDue } from '../quota';
import type { SkillMemory } from './compare';

const DAY = 86_400_000;

/** What the choice of the sweep needs of the memory: the skills' sweeps, the last read, the credit. */
export interface SweepBook {
	skills: Map<string, SkillMemory>;
	/** The instant of the last read; undefined before the first. */
	asOf?: number;
	/** Skills to sweep owed by the time that passed (fractional). */
	sweepCredit: number;
}

/**
 * The skills read in full at this read (the sweep: calls show in no list), oldest first, and the credit
 * left: a day earns `skills / sweepDays` skills; a skill not swept for `sweepDays` days (quota.ts
 * `isDue`) is due. Pure: the book is left as it was.
 */
export function sweepNow(
	book: SweepBook,
	scope: string[],
	now: number,
	sweepDays: number,
): { sweep: Set<string>; credit: number } {
	const last = (id: string) => book.skills.get(id)?.swept ?? book.skills.get(id)?.entered ?? now;
	const elapsed = Math.max(0, now - (book.asOf ?? now));
	const period = sweepDays * DAY;
	const credit = Math.min(scope.length, book.sweepCredit + (scope.length * elapsed) / period);
	const order = [...scope].sort((a, b) => last(a) - last(b) || a.localeCompare(b));
	const overdue = order.filter((id) => isDue(now, last(id) + period, period)).length;
	const count = Math.min(scope.length, Math.max(Math.floor(credit), overdue));
	return { sweep: new Set(order.slice(0, count)), credit: Math.max(0, credit - count) };
}
