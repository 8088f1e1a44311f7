/**
 * Skill Tiers' rules outside compare.ts, without the simulator (issue 56): which skills to sweep
 * (sweep.ts), the reference instant, who the filters before an edit held, the read's order and its
 * sweep window (rules.ts). One row per rule of docs/triggers.md's Skill Tiers section they decide.
 */
import type { SkillMemory } from '../../nodes/WorkspacePracticeTrigger/skillTiers/compare';
import type { ReadProgress } from '../../nodes/WorkspacePracticeTrigger/skillTiers/rules';
import {
	leftOutByFormer,
	maySweep,
	readOrder,
	referenceOf,
} from '../../nodes/WorkspacePracticeTrigger/skillTiers/rules';
import {
	SWEEP_REQUESTS_A_READ,
	sweepLag,
	sweepNow,
} from '../../nodes/WorkspacePracticeTrigger/skillTiers/sweep';
import type { ProficiencyReading } from '../../nodes/shared/skills/tierChange';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-03-01T23:00:00Z');

const skill = (entered: number, swept?: number): SkillMemory => ({
	entered,
	swept,
	pairs: new Map(),
});

describe('which skills to sweep (sweep.ts sweepNow)', () => {
	const scope = ['a', 'b', 'c', 'd'];
	/**
	 * Skills a..d last swept (or entered) the given days before the read (T0 + 1 day); last read T0;
	 * 100 members counted in scope (the share holds every skill).
	 */
	const book = (daysAgo: number[], credit = 0, asOf: number | undefined = T0) => ({
		skills: new Map(scope.map((id, n) => [id, skill(T0 + DAY - daysAgo[n] * DAY)])),
		asOf,
		sweepCredit: credit,
		members: 100,
	});
	test.each([
		// [case, days since each skill's last sweep, credit, sweep every, expected skills, credit left]
		['a day earns skills ÷ Sweep Every: 4 ÷ 4 = 1, the oldest', [3, 2, 1, 0.5], 0, 4, ['a'], 0],
		['credit below one skill waits', [2, 2, 1, 0], 0, 8, [], 0.5],
		['credit carried over adds up', [2, 2, 1, 0], 0.5, 8, ['a'], 0],
		['every overdue skill at once, credit or not', [8, 8, 8, 1], 0, 7, ['a', 'b', 'c'], 0],
		['up to 72 minutes early (isDue) is due', [7 - 1 / 24, 1, 1, 1], 0, 7, ['a'], 0],
		['more than 72 minutes early is not', [6.9, 1, 1, 1], 0, 7, [], 4 / 7],
		['ties by ID', [2, 2, 2, 2], 0, 4, ['a'], 0],
		['the credit is capped at the scope', [1, 1, 1, 1], 9, 4, ['a', 'b', 'c', 'd'], 0],
	])('%s', (_, daysAgo, credit, sweepDays, expected, left) => {
		const before = book(daysAgo as number[], credit as number);
		const copy = JSON.stringify([...before.skills]);
		const { sweep, credit: after } = sweepNow(before, scope, T0 + DAY, sweepDays as number);
		expect([...sweep]).toEqual(expected);
		expect(after).toBeCloseTo(left as number, 6);
		// Pure: the book is left as it was.
		expect(JSON.stringify([...before.skills])).toBe(copy);
		expect(before.sweepCredit).toBe(credit);
	});

	test('the first read (no last read) earns nothing', () => {
		const first = { ...book([1, 1, 1, 1]), asOf: undefined };
		const { sweep, credit } = sweepNow(first, scope, T0 + DAY, 4);
		expect([...sweep]).toEqual([]);
		expect(credit).toBe(0);
	});
});

describe("the sweep's share of a read (sweep.ts: at most a tenth of a day's requests)", () => {
	/** `skills` skills, each keeping `members` members, last swept `daysAgo` days before the read. */
	const wide = (skills: number, members: number, daysAgo: number, credit = 0) => {
		const ids = Array.from({ length: skills }, (_, n) => `s${String(n).padStart(3, '0')}`);
		const pairs = new Map(
			Array.from({ length: members }, (_, n) => [
				`u${n}`,
				{ tier: 0, count: 0, score: null, at: T0 },
			]),
		);
		const skills_ = new Map<string, SkillMemory>(
			ids.map((id) => [id, { entered: T0, swept: T0 + DAY - daysAgo * DAY, pairs }]),
		);
		return { ids, book: { skills: skills_, asOf: T0, sweepCredit: credit } };
	};
	test.each([
		// [case, skills, members each, days since swept, credit, sweep every, skills swept, cycle in reads]
		['all 80 overdue at once, 2,000 members: 5 skills × 20 pages = 100', 80, 2000, 8, 0, 7, 5, 16],
		['a credit piled up while paused: the same 100', 80, 2000, 1, 80, 7, 5, 16],
		['small skills: 100 of 1 page each fit', 120, 40, 8, 0, 7, 100, 2],
		['a skill wider than the share: still one a read', 3, 25_000, 8, 0, 7, 1, 3],
		['within the share: Sweep Every 30 earns 2 (80 ÷ 30 a day)', 80, 2000, 1, 0, 30, 2, 16],
	])('%s', (_, skills, members, daysAgo, credit, sweepDays, swept, cycle) => {
		const { ids, book } = wide(skills, members, daysAgo, credit);
		const { sweep } = sweepNow(book, ids, T0 + DAY, sweepDays);
		expect(sweep.size).toBe(swept);
		// Oldest first: the first skills in order (all equally old here: by ID).
		expect([...sweep]).toEqual(ids.slice(0, swept));
		expect(sweepLag(book, ids, T0 + DAY, sweepDays).cycleReads).toBe(cycle);
	});

	test('the skills left due come first next time, and the lag names them', () => {
		const { ids, book } = wide(80, 2000, 8);
		const first = sweepNow(book, ids, T0 + DAY, 7);
		for (const id of first.sweep)
			book.skills.set(id, { ...(book.skills.get(id) as SkillMemory), swept: T0 + DAY });
		const lag = sweepLag(book, ids, T0 + DAY, 7);
		expect(lag.due).toEqual(ids.slice(5));
		book.asOf = T0 + DAY;
		book.sweepCredit = first.credit;
		const second = sweepNow(book, ids, T0 + 2 * DAY, 7);
		expect([...second.sweep]).toEqual(ids.slice(5, 10));
		expect(SWEEP_REQUESTS_A_READ).toBe(100);
	});

	test('a new skill (no members kept) is costed as the widest of the scope, its first sweep twice', () => {
		// Its first sweep reads its 2,000 members again as of its reference: 40, then 3 × 20.
		const { ids, book } = wide(10, 2000, 8);
		book.skills.set(ids[0], { entered: T0 - 9 * DAY, pairs: new Map() });
		const { sweep } = sweepNow(book, ids, T0 + DAY, 7);
		expect(sweep.size).toBe(4);
	});

	/** The first night after activation: no skill swept, each keeping `kept` members who practised. */
	const firstNight = (skills: number, kept: number, members: number | undefined) => {
		const ids = Array.from({ length: skills }, (_, n) => `s${String(n).padStart(3, '0')}`);
		const pairs = () =>
			new Map(
				Array.from({ length: kept }, (_, n) => [
					`u${n}`,
					{ tier: 0, count: 0, score: null, at: T0 },
				]),
			);
		const skills_ = new Map<string, SkillMemory>(
			ids.map((id) => [id, { entered: T0 - 14 * HOUR, pairs: pairs() }]),
		);
		return { ids, book: { skills: skills_, asOf: T0 - 14 * HOUR, sweepCredit: 0, members } };
	};
	test.each([
		// [case, skills, members kept each, members counted at activation, sweep every, skills swept, cycle]
		[
			'2,000 members × 80 skills, Sweep Every 1: 20 pages + 2 to read a tenth as of the start, 4 skills',
			80,
			0,
			2000,
			1,
			4,
			16,
		],
		['the same with 50 practised kept each: 20 + 2 still', 80, 50, 2000, 1, 4, 16],
		["the form's default 7, a day after activation: 11 earned, 4 fit", 80, 0, 2000, 7, 4, 16],
		['1,000 members × 10 skills, 900 kept each: 10 pages + 1, 9 skills', 10, 900, 1000, 1, 9, 1],
		['a small scope: 100 members × 20 skills, all due, 2 requests each', 20, 0, 100, 1, 20, 1],
		[
			'no count (it failed at activation), nothing swept: one skill a read',
			80,
			0,
			undefined,
			1,
			1,
			80,
		],
	])('the first night: %s', (_, skills, kept, members, sweepDays, swept, cycle) => {
		const { ids, book } = firstNight(skills, kept, members);
		const { sweep } = sweepNow(book, ids, T0 + 10 * HOUR, sweepDays as number);
		expect(sweep.size).toBe(swept);
		expect(sweepLag(book, ids, T0 + 10 * HOUR, sweepDays as number).cycleReads).toBe(cycle);
	});
});

describe('the reference instant (rules.ts referenceOf)', () => {
	test.each([
		['never swept: when the skill entered the scope', skill(T0), undefined, T0],
		['swept: the sweep less the sessions’ hour', skill(T0, T0 + DAY), undefined, T0 + DAY - HOUR],
		[
			'filters edited after the sweep: the edit less the hour',
			skill(T0, T0 + DAY),
			T0 + 2 * DAY,
			T0 + 2 * DAY - HOUR,
		],
		[
			'filters edited before the sweep: the sweep less the hour',
			skill(T0, T0 + DAY),
			T0,
			T0 + DAY - HOUR,
		],
		['never swept, filters edited: still when it entered', skill(T0), T0 + DAY, T0],
	])('%s', (_, memory, keyAt, expected) => {
		expect(referenceOf(memory, keyAt)).toBe(expected);
	});
});

describe('who the filters before an edit held (rules.ts leftOutByFormer)', () => {
	const row = (id: string, email = `${id}@acme.com`): ProficiencyReading => ({
		user: { id, email },
		tier: 'developing',
		score: 60,
	});
	test.each([
		// [case, former query, rows read under it (groups applied), candidates, left out]
		[
			'groups: whom the read under them did not return',
			{ group_ids: 'g1' },
			['a'],
			['a', 'b'],
			['b'],
		],
		['no filter: everyone returned was held', {}, ['a', 'b'], ['a', 'b'], []],
		['named members: only those named', { user_ids: 'a' }, ['a', 'b'], ['a', 'b'], ['b']],
		['named e-mails, any case', { user_emails: 'B@ACME.COM' }, ['a', 'b'], ['a', 'b'], ['a']],
		[
			'IDs and e-mails together',
			{ user_ids: 'a', user_emails: 'c@acme.com' },
			['a', 'b', 'c'],
			['a', 'b', 'c'],
			['b'],
		],
		['a candidate with no row at all', { user_ids: 'a,b' }, ['a'], ['a', 'b'], ['b']],
	])('%s', (_, query, rows, candidates, expected) => {
		const got = leftOutByFormer(
			JSON.stringify(query),
			(rows as string[]).map((id) => row(id)),
			candidates as string[],
		);
		expect([...got].sort()).toEqual(expected);
	});
});

describe('the read order (rules.ts readOrder): the members who practised first, then the sweep', () => {
	const progress = (
		practised: Record<string, string[]>,
		sweep: string[],
		finishing: string[] = [],
	): ReadProgress => ({
		practised: new Map(Object.entries(practised).map(([id, ids]) => [id, new Set(ids)])),
		sweep: new Set(sweep),
		finishing: new Set(finishing),
	});
	const steps = (read: ReadProgress) =>
		readOrder(['a', 'b', 'c'], read).map(
			({ skill: id, sweep }) => `${sweep ? 'sweep' : 'practised'} ${id}`,
		);
	test.each([
		[
			'practised in scope order, then the sweep',
			progress({ c: ['m'], a: ['m'] }, ['b']),
			['practised a', 'practised c', 'sweep b'],
		],
		[
			'a skill both practised and swept: its practised members first',
			progress({ b: ['m'] }, ['b', 'a']),
			['practised b', 'sweep a', 'sweep b'],
		],
		['a skill with no one left to read: no step', progress({ a: [] }, []), []],
		[
			'a sweep finishing: its members by name are the sweep’s',
			progress({ a: ['m'], b: ['n'] }, [], ['b']),
			['practised a', 'sweep b'],
		],
		['a skill out of the scope: no step', progress({ z: ['m'] }, ['z']), []],
	])('%s', (_, read, expected) => {
		expect(steps(read)).toEqual(expected);
	});
});

describe('the sweep window (rules.ts maySweep): a read ends within the hour it began', () => {
	test.each([
		['at the read’s start', 0, true],
		['49 minutes in', 49 * 60_000, true],
		['50 minutes in: the rest waits for the next read', 50 * 60_000, false],
		['the next day (a daily Poll Times carrying the read on)', DAY, false],
	])('%s', (_, after, expected) => {
		expect(maySweep(T0 + (after as number), T0)).toBe(expected);
	});
});
