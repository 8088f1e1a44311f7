/**
 * Skill Tiers' stored state, property-tested (issue 56): random memories (kept tiers of random members
 * and skills, with gaps, reading instants, the filter bookkeeping) and random reads under way (sessions
 * page, sweeps whole, paged and finishing, members still to read, some no kept tier names) go through
 * pack.ts and state.ts, through JSON as n8n stores static data, and come back equal. The layouts are
 * ARCHITECTURE.md's Frozen list.
 */
import type { Pair, SkillMemory } from '../../nodes/WorkspacePracticeTrigger/skillTiers/compare';
import { packSkills, unpackSkills } from '../../nodes/WorkspacePracticeTrigger/skillTiers/pack';
import type {
	ReadUnderWay,
	SkillTiersState,
	TiersMemory,
} from '../../nodes/WorkspacePracticeTrigger/skillTiers/state';
import { decode, encode } from '../../nodes/WorkspacePracticeTrigger/skillTiers/state';
import { mulberry32 } from '../../simulator/state/random';

const CASES = 200;
const T0 = Date.parse('2026-03-01T23:00:00Z');
const KEY = '{"exclude_system_users":true}';

function generator(seed: number) {
	const rand = mulberry32(seed);
	const int = (n: number) => Math.floor(rand() * n);
	const pick = <T>(list: T[]): T => list[int(list.length)];
	const second = () => T0 + int(90 * 86_400) * 1000;
	const members = Array.from({ length: 1 + int(300) }, (_, n) => `member-${seed}-${n}`);
	const skillIds = Array.from({ length: 1 + int(8) }, (_, n) => `skill-${n}`);
	// At most 512 reading instants: what a state names (pack.ts merges older ones).
	const instants = Array.from({ length: 1 + int(40) }, second);
	const pair = (): Pair => ({
		tier: int(5),
		count: int(1024),
		score: rand() < 0.2 ? null : int(10_001) / 100,
		at: pick(instants),
	});
	const skills = new Map<string, SkillMemory>();
	for (const id of skillIds) {
		const pairs = new Map<string, Pair>();
		// Gaps of every length: runs of members with no pair (longer than 64 too).
		const density = rand();
		for (const member of members) if (rand() < density) pairs.set(member, pair());
		skills.set(id, {
			entered: second(),
			...(rand() < 0.7 ? { swept: second() } : {}),
			pairs,
		});
	}
	const someOf = (list: string[]) => new Set(list.filter(() => rand() < 0.3));
	const stranger = (n: number) => `stranger-${seed}-${n}`;
	const reading = (): ReadUnderWay => {
		const sweep = someOf(skillIds);
		const paged = new Map(
			[...sweep]
				.filter(() => rand() < 0.5)
				.map((id) => [id, { page: 1 + int(20), seen: someOf(members) }] as const),
		);
		const finishing = new Set([...someOf(skillIds)].filter((id) => !sweep.has(id)));
		const practised = new Map<string, Set<string>>();
		for (const id of skillIds)
			if (rand() < 0.6) {
				const ids = someOf(members);
				for (let n = int(5); n > 0; n--) ids.add(stranger(n));
				if (ids.size) practised.set(id, ids);
			}
		return {
			at: second(),
			form: 'abcdefghijkl',
			...(rand() < 0.5 ? { sessionsPage: 1 + int(30) } : {}),
			...{ sweep, paged, finishing, practised },
		};
	};
	const memory: TiersMemory = {
		asOf: second(),
		...(rand() < 0.4 ? { keyAt: second(), keyBefore: '{"group_ids":"g1"}' } : {}),
		sweepCredit: int(64) / 8,
		skills,
		...(rand() < 0.6 ? { reading: reading() } : {}),
	};
	return memory;
}

/** What n8n does with static data between polls: JSON. */
const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

test.each(Array.from({ length: CASES }, (_, n) => n + 1))(
	'seed %i: the packed skills and the whole state come back through JSON as they went in',
	(seed) => {
		const memory = generator(seed);
		// The codec alone.
		expect(unpackSkills(throughJson(packSkills(memory.skills)))).toEqual(memory.skills);
		// The state: the memory, the filter bookkeeping, the read under way.
		const stored: SkillTiersState = throughJson(encode(memory, KEY));
		expect(stored.continues).toBe(memory.reading ? true : undefined);
		const back = decode(stored, KEY);
		expect(back).toEqual({ keyAt: undefined, keyBefore: undefined, reading: undefined, ...memory });
		// Stable: encoding what was decoded writes the same JSON.
		expect(JSON.stringify(encode(back, KEY))).toBe(JSON.stringify(stored));
	},
);

test('a pair takes 6 characters; a run of up to 64 members without one takes 2', () => {
	const pairs = new Map<string, Pair>([
		['a', { tier: 4, count: 1023, score: 100, at: T0 }],
		['b', { tier: 0, count: 0, score: null, at: T0 }],
	]);
	const other = new Map<string, Pair>([['b', { tier: 2, count: 3, score: 61.25, at: T0 }]]);
	const packed = packSkills(
		new Map([
			['s1', { entered: T0, pairs }],
			['s2', { entered: T0, swept: T0, pairs: other }],
		]),
	);
	expect(packed.m).toEqual(['a', 'b']);
	expect(packed.i).toEqual([T0 / 1000]);
	expect(packed.s?.s1[2]).toHaveLength(12);
	// s2: member a has no pair (a run of 1: ".A"), then b's 6 characters.
	expect(packed.s?.s2[2]).toMatch(/^\.A[A-Za-z0-9_-]{6}$/);
	expect(packed.s?.s2.slice(0, 2)).toEqual([T0 / 1000, T0 / 1000]);
});
