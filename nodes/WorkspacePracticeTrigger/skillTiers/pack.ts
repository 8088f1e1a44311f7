import type { Pair, SkillMemory } from './compare';

/**
 * The kept tiers as static data stores them. n8n saves static data whole with every execution, so it
 * is compact: 6 base-64 characters per member and skill with a pair (2,000 members × 80 skills: about
 * 1 MB); a run of members without one costs 2 characters per 64.
 */
export interface PackedSkills {
	/** Member IDs and reading instants (s): pairs name them by position. */
	m?: string[];
	i?: number[];
	/** Per skill ID: [entered (s), swept (s) or 0, pairs]. */
	s?: Record<string, [number, number, string]>;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const SKIP = '.';
const NO_SCORE = 16383;
const MAX_COUNT = 1023;
/** Distinct reading instants a state can name (9 bits). */
const MAX_INSTANTS = 512;

function packPair(pair: Pair, instant: number): string {
	const score =
		pair.score === null ? NO_SCORE : Math.max(0, Math.min(10000, Math.round(pair.score * 100)));
	const value =
		((pair.tier * (MAX_COUNT + 1) + Math.min(pair.count, MAX_COUNT)) * (NO_SCORE + 1) + score) *
			MAX_INSTANTS +
		instant;
	return [5, 4, 3, 2, 1, 0].map((digit) => B64[Math.floor(value / 64 ** digit) % 64]).join('');
}

function unpackPair(text: string, instants: number[]): Pair {
	let value = 0;
	for (const char of text) value = value * 64 + B64.indexOf(char);
	const instant = value % MAX_INSTANTS;
	value = Math.floor(value / MAX_INSTANTS);
	const score = value % (NO_SCORE + 1);
	value = Math.floor(value / (NO_SCORE + 1));
	return {
		tier: Math.floor(value / (MAX_COUNT + 1)),
		count: value % (MAX_COUNT + 1),
		score: score === NO_SCORE ? null : score / 100,
		at: (instants[instant] ?? 0) * 1000,
	};
}

export function unpackSkills(packed: PackedSkills): Map<string, SkillMemory> {
	const members = packed.m ?? [];
	const instants = packed.i ?? [];
	const skills = new Map<string, SkillMemory>();
	for (const [skillId, [entered, swept, text]] of Object.entries(packed.s ?? {})) {
		const pairs = new Map<string, Pair>();
		let member = 0;
		for (let n = 0; n < text.length; member++) {
			if (text[n] === SKIP) {
				member += B64.indexOf(text[n + 1]);
				n += 2;
			} else {
				pairs.set(members[member], unpackPair(text.slice(n, n + 6), instants));
				n += 6;
			}
		}
		skills.set(skillId, {
			entered: entered * 1000,
			swept: swept ? swept * 1000 : undefined,
			pairs,
		});
	}
	return skills;
}

/**
 * The skills packed; members no pair names leave the table. Past 512 distinct reading instants (years
 * of hourly reads), the oldest are merged into the next: those pairs' `from` then names a later read.
 */
export function packSkills(skills: Map<string, SkillMemory>): PackedSkills {
	const all = [...skills.values()].flatMap((skill) => [...skill.pairs]);
	const members = [...new Set(all.map(([id]) => id))];
	const index = new Map(members.map((id, n) => [id, n]));
	const second = (pair: Pair) => Math.floor(pair.at / 1000);
	const kept = [...new Set(all.map(([, pair]) => second(pair)))]
		.sort((a, b) => a - b)
		.slice(-MAX_INSTANTS);
	const instantOf = new Map(kept.map((s, n) => [s, n]));
	const s: Record<string, [number, number, string]> = {};
	for (const [skillId, skill] of skills) {
		const slots: Array<string | undefined> = [];
		for (const [id, pair] of skill.pairs)
			slots[index.get(id) as number] = packPair(pair, instantOf.get(second(pair)) ?? 0);
		let text = '';
		let skip = 0;
		// A run of members without a pair is written as SKIP and its length (up to 64 a time).
		for (const slot of slots) {
			if (slot === undefined) skip++;
			else {
				for (; skip > 0; skip -= Math.min(skip, 64)) text += SKIP + B64[Math.min(skip, 64) - 1];
				text += slot;
			}
		}
		s[skillId] = [
			Math.floor(skill.entered / 1000),
			skill.swept === undefined ? 0 : Math.floor(skill.swept / 1000),
			text,
		];
	}
	return { m: members, i: kept, s };
}

/** A set of members as a bitmap over a table's positions, 6 members a character. */
export function packMembers(ids: Iterable<string>, indexOf: Map<string, number>): string {
	const chars: number[] = [];
	for (const id of ids) {
		const n = indexOf.get(id);
		if (n !== undefined) chars[Math.floor(n / 6)] = (chars[Math.floor(n / 6)] ?? 0) | (1 << n % 6);
	}
	return Array.from(chars, (bits) => B64[bits ?? 0]).join('');
}

/** The members a bitmap of `packMembers` names. */
export const unpackMembers = (text: string, table: string[]): Set<string> =>
	new Set(table.filter((_, n) => B64.indexOf(text.charAt(Math.floor(n / 6))) & (1 << n % 6)));
