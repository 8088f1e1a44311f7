/**
 * Skill Tiers' rules without the simulator (skillTiers/compare.ts): one row per sentence of
 * docs/triggers.md's Skill Tiers contract that the rules decide, each a kept memory, a reading and
 * the changes and memory expected. The reads (who is read, as of when) are the simulator tests' part.
 */
import type {
	Pair,
	SkillMemory,
	SkillReading,
} from '../../nodes/WorkspacePracticeTrigger/skillTiers/compare';
import {
	compareSkill,
	editCandidates,
	unknownMembers,
} from '../../nodes/WorkspacePracticeTrigger/skillTiers/compare';
import type { ProficiencyReading } from '../../nodes/shared/skills/tierChange';

const T0 = Date.parse('2026-03-01T06:00:00Z'); // the skill entered the scope
const SWEPT = T0 + 7 * 86_400_000;
const NOW = SWEPT + 86_400_000;
const EDIT = SWEPT + 3_600_000; // the filters edited after the sweep
const REF = SWEPT - 3_600_000;

const TIER = { none: 0, needs: 1, developing: 2, proficient: 3, excellent: 4 } as const;
type TierName = keyof typeof TIER;
const NAMES = ['insufficient_data', 'needs_work', 'developing', 'proficient', 'excellent'];

const row = (
	id: string,
	tier: TierName,
	count = 3,
	score: number | null = 50,
): ProficiencyReading => ({
	user: { id, email: `${id}@acme.com` },
	tier: NAMES[TIER[tier]],
	score: tier === 'none' ? null : score,
	observation_count: count,
});
const pair = (tier: TierName, at: number, count = 3, score: number | null = 50): Pair => ({
	tier: TIER[tier],
	count,
	score: tier === 'none' ? null : score,
	at,
});
const memory = (pairs: Record<string, Pair>, extra: Partial<SkillMemory> = {}): SkillMemory => ({
	entered: T0,
	swept: SWEPT,
	pairs: new Map(Object.entries(pairs)),
	...extra,
});
const reading = (rows: ProficiencyReading[], extra: Partial<SkillReading> = {}): SkillReading => ({
	now: NOW,
	sweep: false,
	asked: rows.map((r) => String(r.user.id)),
	rows,
	reference: REF,
	then: [],
	outOfFormerScope: new Set(),
	...extra,
});

interface Row {
	sentence: string;
	kept: SkillMemory;
	read: SkillReading;
	/** [member, tier before, tier after, from] per change, in order. */
	changes: Array<[string, string, string, number]>;
	/** The pairs after, as [member, tier, at]. */
	pairs: Array<[string, TierName, number]>;
	swept?: number;
}

const rows: Row[] = [
	{
		sentence:
			'What a change is: the tier last reported differs from the tier in a reading at a read',
		kept: memory({ bob: pair('developing', SWEPT) }),
		read: reading([row('bob', 'proficient')]),
		changes: [['bob', 'developing', 'proficient', SWEPT]],
		pairs: [['bob', 'proficient', NOW]],
	},
	{
		sentence: 'What a change is: the baseline recorded is compared, and the same tier is no change',
		kept: memory({ bob: pair('developing', T0) }),
		read: reading([row('bob', 'developing', 9, 64)]),
		changes: [],
		pairs: [['bob', 'developing', T0]],
	},
	{
		sentence: 'A tier that moves and comes back between two reads of a member is no event',
		kept: memory({ bob: pair('proficient', SWEPT) }),
		// Bob went down to developing and back up between the reads: the reading shows proficient.
		read: reading([row('bob', 'proficient', 12, 80)]),
		changes: [],
		pairs: [['bob', 'proficient', SWEPT]],
	},
	{
		sentence: 'Each change is emitted once: the moved tier is what the next read compares with',
		kept: memory({ bob: pair('proficient', NOW) }),
		read: reading([row('bob', 'proficient')], { now: NOW + 86_400_000 }),
		changes: [],
		pairs: [['bob', 'proficient', NOW]],
	},
	{
		sentence:
			'A skill added starts from a baseline as of the read that first sees it (its row then is compared)',
		kept: memory({}, { entered: T0, swept: undefined }),
		read: reading([row('bob', 'proficient')], { reference: T0, then: [row('bob', 'developing')] }),
		changes: [['bob', 'developing', 'proficient', T0]],
		pairs: [['bob', 'proficient', NOW]],
	},
	{
		sentence:
			'A member who enters the scope starts from a baseline at their first reading and emits nothing for where they stand',
		kept: memory({}),
		read: reading([row('ann', 'excellent')], { then: [row('ann', 'developing')] }),
		changes: [],
		pairs: [['ann', 'excellent', NOW]],
	},
	{
		sentence:
			'… except a first tier: no observation before entering and a scored tier now is emitted with new: true',
		kept: memory({}),
		read: reading([row('ann', 'needs')]),
		changes: [['ann', 'insufficient_data', 'needs_work', T0]],
		pairs: [['ann', 'needs', NOW]],
	},
	{
		sentence: '… and a row before entering without a tier yet is no observation either: new',
		kept: memory({}),
		read: reading([row('ann', 'developing')], { then: [row('ann', 'none', 1)] }),
		changes: [['ann', 'insufficient_data', 'developing', REF]],
		pairs: [['ann', 'developing', NOW]],
	},
	{
		sentence: 'A member who leaves the scope is forgotten without an event',
		kept: memory({ bob: pair('developing', SWEPT), carla: pair('excellent', SWEPT) }),
		read: reading([row('carla', 'excellent')], { asked: ['bob', 'carla'] }),
		changes: [],
		pairs: [['carla', 'excellent', SWEPT]],
	},
	{
		sentence: '… at a sweep too: every kept member the full reading lacks is forgotten',
		kept: memory({ bob: pair('developing', SWEPT), carla: pair('excellent', SWEPT) }),
		read: reading([row('carla', 'excellent')], { sweep: true, asked: [] }),
		changes: [],
		pairs: [['carla', 'excellent', SWEPT]],
		swept: NOW,
	},
	{
		sentence: 'Back, they start from a baseline again',
		kept: memory({}),
		read: reading([row('bob', 'excellent')], { then: [row('bob', 'developing')] }),
		changes: [],
		pairs: [['bob', 'excellent', NOW]],
	},
	{
		sentence:
			'The members a filter edit brings in start from a baseline (the former filters left them out)',
		kept: memory({ bob: pair('developing', SWEPT) }),
		read: reading([row('bob', 'proficient')], { outOfFormerScope: new Set(['bob']) }),
		changes: [],
		pairs: [['bob', 'proficient', NOW]],
	},
	{
		sentence:
			'Editing the Filters keeps the history of every member that stays in scope: their changes are still emitted',
		kept: memory({ bob: pair('developing', SWEPT) }),
		read: reading([row('bob', 'proficient')]),
		changes: [['bob', 'developing', 'proficient', SWEPT]],
		pairs: [['bob', 'proficient', NOW]],
	},
	{
		sentence:
			'A change from calls alone is emitted at the sweep that sees it, compared with the last reported tier',
		kept: memory({ bob: pair('needs', T0) }),
		read: reading([row('bob', 'developing')], { sweep: true, asked: [] }),
		changes: [['bob', 'needs_work', 'developing', T0]],
		pairs: [['bob', 'developing', NOW]],
		swept: NOW,
	},
];

describe('Skill Tiers rules, one row per contract sentence', () => {
	test.each(rows.map((r) => [r.sentence, r]))('%s', (_sentence, r) => {
		const keptPairs = [...r.kept.pairs.entries()].map(([id, p]) => [id, { ...p }]);
		const { skill, changes } = compareSkill(r.kept, r.read);
		expect(changes.map((c) => [String(c.row.user.id), c.before.tier, c.row.tier, c.from])).toEqual(
			r.changes,
		);
		expect([...skill.pairs].map(([id, p]) => [id, p.tier, p.at])).toEqual(
			r.pairs.map(([id, tier, at]) => [id, TIER[tier], at]),
		);
		expect(skill.swept).toBe(r.swept ?? r.kept.swept);
		// Pure: the memory passed in is as it was.
		expect([...r.kept.pairs.entries()]).toEqual(keptPairs);
	});
});

test('Counts before and after are the readings’ own, and the scores with them', () => {
	const { changes } = compareSkill(
		memory({ bob: pair('developing', SWEPT, 4, 61.25) }),
		reading([row('bob', 'proficient', 9, 80.5)]),
	);
	expect(changes[0].before).toEqual({ tier: 'developing', score: 61.25, observation_count: 4 });
	expect(changes[0].row).toMatchObject({ observation_count: 9, score: 80.5 });
});

test('A member new to a skill is read as of the reference; one the memory knows is not', () => {
	const kept = memory({ bob: pair('developing', SWEPT) });
	expect(unknownMembers(kept, [row('bob', 'developing'), row('ann', 'needs')])).toEqual(['ann']);
});

test('Until a skill is next swept, the members compared with a tier from before the edit are checked against the former filters', () => {
	const kept = memory({ bob: pair('developing', SWEPT), carla: pair('proficient', NOW - 1000) });
	const read = [row('bob', 'developing'), row('carla', 'proficient'), row('ann', 'needs')];
	// Bob's pair is from before the edit; Ann had a row then; Carla's pair is from after it.
	expect(editCandidates(kept, EDIT, read, [row('ann', 'needs')])).toEqual(['bob', 'ann']);
	// Once swept after the edit, nobody is.
	expect(editCandidates({ ...kept, swept: EDIT + 1000 }, EDIT, read, [])).toEqual([]);
	expect(editCandidates(kept, undefined, read, [])).toEqual([]);
});
