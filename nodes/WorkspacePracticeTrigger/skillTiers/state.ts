import type { IDataObject } from 'n8n-workflow';

import type { FamilyState } from '../family';
import { storedState } from '../family';

/**
 * Skill Tiers state in the node's static data. n8n saves static data whole with every execution, so
 * it is compact: one table of member IDs, and per skill one string with 6 characters per member that
 * has a row (tier, observation count, score, and the instant of the reading it comes from). 2,000
 * members with a tier in each of 80 skills take about 1 MB; absent members cost 2 characters per 64.
 * Another version (or family) starts over.
 */
export const SKILL_TIERS_STATE_VERSION = 'skill-tiers-2';

export const TIERS = ['insufficient_data', 'needs_work', 'developing', 'proficient', 'excellent'];

/** What the trigger last reported for a member and skill (or the baseline it recorded). */
export interface Pair {
	/** Index in TIERS. */
	tier: number;
	count: number;
	/** Two decimals; null without a score. */
	score: number | null;
	/** The instant of that reading (epoch ms, whole seconds). */
	at: number;
}

export interface SkillMemory {
	/** When the skill entered the scope (its baseline instant). */
	entered: number;
	/** The last time every member of it was read (the sweep); undefined: not yet. */
	swept?: number;
	/** Per user ID. A member with no pair has no row since `entered` as far as the trigger knows. */
	pairs: Map<string, Pair>;
	/** Members whose pair was dropped because they left the scope: back, they start from a baseline. */
	left: Set<string>;
}

/** The state as the read works with it. */
export interface TiersMemory {
	/** The as-of instant of the last read (epoch ms); undefined before the first. */
	asOf?: number;
	/** When the filters last changed (epoch ms). */
	keyAt?: number;
	/** The filters before that change (a stored key): who was in scope before it. */
	keyBefore?: string;
	/** Sessions listed unscored: [user ID, scenario ID, created_at in seconds]. */
	unscored?: Array<[string, string, number]>;
	/** Skills to sweep owed by the time that passed (fractional). */
	sweepCredit: number;
	/** Scenario ID → skill IDs, when few enough to keep, and when it was read. */
	scenarioSkills?: { at: number; map: Record<string, string[]> };
	skills: Map<string, SkillMemory>;
}

/** The stored form (JSON). */
export interface SkillTiersState extends FamilyState {
	v: typeof SKILL_TIERS_STATE_VERSION;
	/** The filters (members, groups, system users) the pairs were read with. */
	key: string;
	asOf?: number;
	keyAt?: number;
	/** The key before the change at keyAt. */
	kb?: string;
	unscored?: Array<[string, string, number]>;
	credit?: number;
	scenarios?: { at: number; map: Record<string, string[]> };
	/** Member IDs; pairs refer to them by position. */
	m?: string[];
	/** Reading instants in seconds; pairs refer to them by position. */
	i?: number[];
	/** Per skill ID: [entered (s), swept (s) or 0, pairs]. */
	s?: Record<string, [number, number, string]>;
	/** Per skill ID: members who left the scope. */
	l?: Record<string, string[]>;
}

/** The stored state if it is this family's; a fresh one otherwise. */
export function readState(staticData: IDataObject, key: string): SkillTiersState {
	// No key check: pairs that stay in scope keep their history when the filters are edited.
	return (
		storedState<SkillTiersState>(staticData, SKILL_TIERS_STATE_VERSION) ?? {
			v: SKILL_TIERS_STATE_VERSION,
			key,
		}
	);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const SKIP = '.';
const NO_SCORE = 16383;
const MAX_COUNT = 1023;
/** Distinct reading instants a state can name (9 bits). */
export const MAX_INSTANTS = 512;

function packPair(pair: Pair, instant: number): string {
	const score =
		pair.score === null ? NO_SCORE : Math.max(0, Math.min(10000, Math.round(pair.score * 100)));
	let value =
		((pair.tier * (MAX_COUNT + 1) + Math.min(pair.count, MAX_COUNT)) * (NO_SCORE + 1) + score) *
			MAX_INSTANTS +
		instant;
	let out = '';
	for (let n = 0; n < 6; n++) {
		out = B64[value % 64] + out;
		value = Math.floor(value / 64);
	}
	return out;
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

/** The stored state as the read works with it; a state built for other filters keeps its pairs. */
export function decode(stored: SkillTiersState, key: string): TiersMemory {
	const members = stored.m ?? [];
	const instants = stored.i ?? [];
	const skills = new Map<string, SkillMemory>();
	for (const [skillId, [entered, swept, text]] of Object.entries(stored.s ?? {})) {
		const pairs = new Map<string, Pair>();
		let member = 0;
		for (let n = 0; n < text.length; ) {
			if (text[n] === SKIP) {
				member += B64.indexOf(text[n + 1]) + 1;
				n += 2;
			} else {
				pairs.set(members[member], unpackPair(text.slice(n, n + 6), instants));
				member++;
				n += 6;
			}
		}
		skills.set(skillId, {
			entered: entered * 1000,
			swept: swept ? swept * 1000 : undefined,
			pairs,
			left: new Set(stored.l?.[skillId] ?? []),
		});
	}
	// Filters edited since the stored read: they changed after its as-of instant, so a member with no
	// row then had no observation before entering (contract point 4: a first tier is an event).
	const same = stored.key === key || stored.asOf === undefined;
	const keyAt = same ? stored.keyAt : stored.asOf;
	return {
		asOf: stored.asOf,
		keyAt,
		keyBefore: same ? stored.kb : stored.key,
		unscored: stored.unscored,
		sweepCredit: stored.credit ?? 0,
		scenarioSkills: stored.scenarios,
		skills,
	};
}

/**
 * The memory in its stored form. Members no pair names are dropped from the table. Past 512 distinct
 * reading instants (years of hourly reads), the oldest are merged into the next: those pairs' `from`
 * then names a later read.
 */
export function encode(memory: TiersMemory, key: string): SkillTiersState {
	const index = new Map<string, number>();
	const members: string[] = [];
	const seconds = new Set<number>();
	for (const skill of memory.skills.values())
		for (const [id, pair] of skill.pairs) {
			if (!index.has(id)) {
				index.set(id, members.length);
				members.push(id);
			}
			seconds.add(Math.floor(pair.at / 1000));
		}
	const sorted = [...seconds].sort((a, b) => a - b);
	const kept = sorted.slice(-MAX_INSTANTS);
	const instantOf = new Map(kept.map((s, n) => [s, n]));
	const s: Record<string, [number, number, string]> = {};
	for (const [skillId, skill] of memory.skills) {
		const slots: Array<string | undefined> = [];
		for (const [id, pair] of skill.pairs) {
			const second = Math.floor(pair.at / 1000);
			slots[index.get(id) as number] = packPair(pair, instantOf.get(second) ?? 0);
		}
		let text = '';
		let skip = 0;
		const flush = () => {
			for (; skip > 0; skip -= Math.min(skip, 64)) text += SKIP + B64[Math.min(skip, 64) - 1];
		};
		for (let n = 0; n < slots.length; n++) {
			const slot = slots[n];
			if (slot === undefined) skip++;
			else {
				flush();
				text += slot;
			}
		}
		s[skillId] = [
			Math.floor(skill.entered / 1000),
			skill.swept === undefined ? 0 : Math.floor(skill.swept / 1000),
			text,
		];
	}
	const left: Record<string, string[]> = {};
	for (const [skillId, skill] of memory.skills)
		if (skill.left.size) left[skillId] = [...skill.left].slice(-1000);
	const state: SkillTiersState = {
		v: SKILL_TIERS_STATE_VERSION,
		key,
		asOf: memory.asOf,
		credit: Math.round(memory.sweepCredit * 1e6) / 1e6,
		m: members,
		i: kept,
		s,
	};
	if (Object.keys(left).length) state.l = left;
	if (memory.keyAt !== undefined) state.keyAt = memory.keyAt;
	if (memory.keyBefore !== undefined) state.kb = memory.keyBefore;
	if (memory.unscored?.length) state.unscored = memory.unscored;
	if (memory.scenarioSkills) state.scenarios = memory.scenarioSkills;
	return state;
}
