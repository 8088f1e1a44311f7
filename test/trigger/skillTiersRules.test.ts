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
import { sweepNow } from '../../nodes/WorkspacePracticeTrigger/skillTiers/sweep';
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
	/** Skills a..d last swept (or entered) the given days before the read (T0 + 1 day); last read T0. */
	const book = (daysAgo: number[], credit = 0, asOf: number | undefined = T0) => ({
		skills: new Map(scope.map((id, n) => [id, skill(T0 + DAY - daysAgo[n] * DAY)])),
		asOf,
		sweepCredit: credit,
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
