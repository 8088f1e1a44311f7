import { isDue } from '../quota';
import type { TiersMemory } from './state';

const DAY = 86_400_000;

/**
 * The skills read in full at this read (the sweep: calls show in no list), oldest first: a day earns
 * `skills / sweepDays` skills; a skill not swept for `sweepDays` days (quota.ts `isDue`) is due.
 */
export function sweepNow(
	memory: TiersMemory,
	scope: string[],
	now: number,
	sweepDays: number,
): Set<string> {
	const last = (id: string) =>
		memory.skills.get(id)?.swept ?? memory.skills.get(id)?.entered ?? now;
	const elapsed = Math.max(0, now - (memory.asOf ?? now));
	const period = sweepDays * DAY;
	const credit = Math.min(scope.length, memory.sweepCredit + (scope.length * elapsed) / period);
	const order = [...scope].sort((a, b) => last(a) - last(b) || a.localeCompare(b));
	const overdue = order.filter((id) => isDue(now, last(id) + period, period)).length;
	const count = Math.min(scope.length, Math.max(Math.floor(credit), overdue));
	memory.sweepCredit = Math.max(0, credit - count);
	return new Set(order.slice(0, count));
}
