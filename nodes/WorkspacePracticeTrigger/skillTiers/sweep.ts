import { MAX_PAGE_SIZE, REQUESTS_PER_DAY } from '../../shared/transport';
import { isDue } from '../quota';
import type { SkillMemory } from './compare';

const DAY = 86_400_000;

/** The sweep's fair share of the workspace's day: a tenth (the other workflows need the rest). */
export const SWEEP_SHARE = 0.1;

/** The requests one read's sweep may spend: the share of a day (100 of 1,000). */
export const SWEEP_REQUESTS_A_READ = Math.round(REQUESTS_PER_DAY * SWEEP_SHARE);

/** A skill's full read, in requests: ⌈members in scope ÷ 100⌉ pages (at least one). */
export const sweepPages = (members: number): number =>
	Math.max(1, Math.ceil(members / MAX_PAGE_SIZE));

/** What the choice of the sweep needs of the memory: the skills' sweeps, the last read, the credit. */
export interface SweepBook {
	skills: Map<string, SkillMemory>;
	/** The instant of the last read; undefined before the first. */
	asOf?: number;
	/** Skills to sweep owed by the time that passed (fractional). */
	sweepCredit: number;
	/** The members in scope as counted at activation (fit.ts); undefined: not counted. */
	members?: number;
}

const lastSwept = (book: SweepBook, id: string, now: number): number =>
	book.skills.get(id)?.swept ?? book.skills.get(id)?.entered ?? now;

/**
 * The members a first sweep finds unknown and practised since the skill's start, as a share of those
 * it does not keep: they are read once more, as of the start (read.ts `readSweepPage`). Sessions make
 * members known at each read; these are the members whose practice since was calls alone.
 */
const FIRST_SWEEP_MOVED = 0.1;

/**
 * Each skill's sweep cost in requests. A skill swept before: ⌈members it keeps ÷ 100⌉ (a sweep reads
 * the members with a tier, and those are the ones kept). A skill never swept (every skill in the first
 * cycle after activation, or one new to the scope) may hold every member in scope: the count at
 * activation or the widest skill swept, whichever is more; and its first sweep reads the members it
 * does not keep who practised since its start once more, as of the start, 100 a request, costed as a
 * tenth of them (`first`: counted). With neither known, the whole share: one such skill a
 * read, until a sweep has measured the scope.
 */
function costOf(book: SweepBook, scope: string[], first = true): (id: string) => number {
	const kept = (id: string) => book.skills.get(id)?.pairs.size ?? 0;
	const swept = (id: string) => book.skills.get(id)?.swept !== undefined;
	const widest = Math.max(0, ...scope.filter(swept).map(kept));
	const unknown = book.members === undefined && widest === 0;
	const most = Math.max(book.members ?? 0, widest);
	return (id) => {
		if (swept(id)) return sweepPages(kept(id));
		if (unknown) return SWEEP_REQUESTS_A_READ;
		const rows = Math.max(most, kept(id));
		const moved = Math.ceil(((rows - kept(id)) * FIRST_SWEEP_MOVED) / MAX_PAGE_SIZE);
		return sweepPages(rows) + (first ? moved : 0);
	};
}

/** How many of `order` (at most `wanted`, at least one) one read's share of requests holds. */
function fitting(order: string[], cost: (id: string) => number, wanted: number): number {
	let count = 0;
	for (let spent = 0; count < wanted; count++) {
		spent += cost(order[count]);
		if (count > 0 && spent > SWEEP_REQUESTS_A_READ) break;
	}
	return count;
}

/**
 * The skills read in full at this read (the sweep: calls show in no list), oldest first, and the credit
 * left: a day earns `skills / sweepDays` skills; a skill not swept for `sweepDays` days (quota.ts
 * `isDue`) is due. The read's sweep spends at most `SWEEP_REQUESTS_A_READ` (at least one skill, so the
 * cycle always moves): skills left due come first next time, and the read warns that the sweep lags
 * (`sweepLag`). Pure: the book is left as it was.
 */
export function sweepNow(
	book: SweepBook,
	scope: string[],
	now: number,
	sweepDays: number,
): { sweep: Set<string>; credit: number } {
	const last = (id: string) => lastSwept(book, id, now);
	const elapsed = Math.max(0, now - (book.asOf ?? now));
	const period = sweepDays * DAY;
	const credit = Math.min(scope.length, book.sweepCredit + (scope.length * elapsed) / period);
	const order = [...scope].sort((a, b) => last(a) - last(b) || a.localeCompare(b));
	const overdue = order.filter((id) => isDue(now, last(id) + period, period)).length;
	const wanted = Math.min(scope.length, Math.max(Math.floor(credit), overdue));
	const count = fitting(order, costOf(book, scope), wanted);
	return { sweep: new Set(order.slice(0, count)), credit: Math.max(0, credit - count) };
}

/**
 * After a read: the skills of the scope due for their sweep and not swept (the share of the read's
 * requests or its hour ran out), and the cycle the share achieves, in reads (one a day: days).
 */
export function sweepLag(
	book: SweepBook,
	scope: string[],
	now: number,
	sweepDays: number,
): { due: string[]; cycleReads: number } {
	const period = sweepDays * DAY;
	const due = scope.filter((id) => isDue(now, lastSwept(book, id, now) + period, period));
	// The cycle once every skill is swept: a first sweep's second reading is paid once.
	const cost = costOf(book, scope, false);
	let cycleReads = 0;
	for (let rest = scope; rest.length > 0; cycleReads++)
		rest = rest.slice(fitting(rest, cost, rest.length));
	return { due, cycleReads: Math.max(1, cycleReads) };
}
