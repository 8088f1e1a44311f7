/**
 * A small workspace for the Skill Tiers oracle tests (trigger and Get Tier Changes), and the oracle's
 * own proficiency arithmetic. Written from the service spec (section 4.3) and TIERS-CONTRACT.md alone,
 * not from the package's code: the expected tier of a member in a skill is computed here from the
 * observations this test logged, never read back from the simulator.
 *
 * The world replaces the seed's skills with its own and clears every observation, so "every skill"
 * and "every member who practised" mean exactly what the test made. It drives the simulator through
 * its Control (sessions, calls) and edits membership and groups on the store directly (leave, return,
 * change groups): no simulator code is changed for it.
 */
import type { Control } from '../../simulator';
import { SYSTEM_EMAIL_DOMAIN } from '../../simulator';
import type { ScenarioRec, UserRec } from '../../simulator/state/types';

export const SECOND = 1000;
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export type Tier = 'insufficient_data' | 'needs_work' | 'developing' | 'proficient' | 'excellent';

/** Order of the scored tiers (for up/down). */
export const TIER_RANK: Record<Tier, number> = {
	insufficient_data: -1,
	needs_work: 0,
	developing: 1,
	proficient: 2,
	excellent: 3,
};

/** Spec 4.3 rule 3, applied to the unrounded score (contract point 6). */
export function tierOf(score: number | null): Tier {
	if (score === null) return 'insufficient_data';
	if (score >= 90) return 'excellent';
	if (score >= 75) return 'proficient';
	if (score >= 50) return 'developing';
	return 'needs_work';
}

const BOUNDARIES = [50, 75, 90];
const HALF_LIFE_DAYS = 30; // spec 4.3 rule 1
const MIN_OBSERVATIONS = 3; // spec 4.3 rule 2

/** One observation of a member in a skill: a scored session on a scenario evaluating it, or a call. */
export interface Observation {
	userId: string;
	skillId: string;
	score: number;
	/** When it happened (the as-of rule compares this). */
	at: number;
	/** When the test logged it (what the service knew at a given moment). */
	loggedAt: number;
	viaSession: boolean;
}

/** A reading of a pair: the proficiency row as of an instant, or no row (count 0). */
export interface Reading {
	count: number;
	/** Unrounded; null under 3 observations. */
	score: number | null;
	tier: Tier;
}

/** Spec 4.3: time-decay weighted mean, 30-day half-life, at least 3 observations. */
export function readingOf(observations: readonly Observation[], asOf: number): Reading {
	const seen = observations.filter((o) => o.at <= asOf);
	if (seen.length < MIN_OBSERVATIONS)
		return { count: seen.length, score: null, tier: 'insufficient_data' };
	let weighted = 0;
	let weights = 0;
	for (const o of seen) {
		const w = Math.pow(0.5, (asOf - o.at) / DAY / HALF_LIFE_DAYS);
		weighted += w * o.score;
		weights += w;
	}
	const score = weighted / weights;
	return { count: seen.length, score, tier: tierOf(score) };
}

export interface Member {
	id: string;
	email: string;
	system: boolean;
}
export interface Skill {
	id: string;
	name: string;
}
export interface Scenario {
	id: string;
	skillIds: string[];
}
export interface Group {
	id: string;
	name: string;
}
/** A scored session as logged: who, which scenario, when (its created_at). */
export interface LoggedSession {
	userId: string;
	scenarioId: string;
	skillIds: string[];
	at: number;
}

export interface WorldShape {
	members: number;
	skills: number;
	groups: number;
	/** How many system users (e-mail in the operator's domain) among the members. */
	systemUsers: number;
	/** Extra members with a history in the first skill, so its proficiency list takes two pages. */
	crowd?: number;
}

/** A uuid drawn from the sequence's random numbers (deterministic per seed). */
function uuidFrom(rand: () => number): string {
	const hex = Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16)).join('');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export class TierWorld {
	readonly members: Member[] = [];
	readonly crowd: Member[] = [];
	readonly skills: Skill[] = [];
	readonly scenarios: Scenario[] = [];
	readonly groups: Group[] = [];
	readonly observations: Observation[] = [];
	readonly sessions: LoggedSession[] = [];

	constructor(
		private readonly control: Control,
		readonly rand: () => number,
		shape: WorldShape,
		now: number,
	) {
		const data = control.store.data;
		// Only this test's skills exist, and nothing observed them yet.
		data.skills = [];
		data.observations = [];
		for (const s of data.scenarios) s.skillIds = [];
		const tag = Math.floor(rand() * 1e9).toString(36);
		for (let i = 0; i < shape.groups; i++) {
			const g = { id: uuidFrom(rand), name: `Oracle Group ${i + 1}` };
			this.groups.push(g);
			data.groups.push({ ...g, createdAt: now - 400 * DAY });
		}
		for (let i = 0; i < shape.skills; i++) {
			const s = { id: uuidFrom(rand), name: `Oracle Skill ${i + 1}` };
			this.skills.push(s);
			data.skills.push({
				...s,
				slug: `oracle-skill-${i + 1}`,
				description: 'A skill of the oracle test',
				createdAt: now - 400 * DAY,
			});
		}
		// One scenario per skill, and one that evaluates the first two (a session observes both).
		const evaluations = this.skills.map((s) => [s.id]);
		if (this.skills.length >= 2) evaluations.push([this.skills[0].id, this.skills[1].id]);
		evaluations.forEach((skillIds, i) => {
			const id = uuidFrom(rand);
			this.scenarios.push({ id, skillIds });
			data.scenarios.push(this.scenarioRec(id, `oracle-${tag}-${i + 1}`, skillIds, now));
		});
		const addUser = (email: string, list: Member[]) => {
			const m: Member = { id: uuidFrom(rand), email, system: email.endsWith(SYSTEM_EMAIL_DOMAIN) };
			list.push(m);
			const groupIds = this.groups.length
				? [this.groups[Math.floor(rand() * this.groups.length)].id]
				: [];
			const user: UserRec = {
				id: m.id,
				email,
				first_name: 'Oracle',
				last_name: email.split('@')[0],
				member: true,
				role: 'member',
				joinedAt: now - 300 * DAY,
				groupIds,
			};
			data.users.push(user);
		};
		for (let i = 0; i < shape.members; i++) {
			const system = i >= shape.members - shape.systemUsers;
			addUser(
				system ? `oracle-sys${i}-${tag}${SYSTEM_EMAIL_DOMAIN}` : `oracle${i}-${tag}@acme.com`,
				this.members,
			);
		}
		for (let i = 0; i < (shape.crowd ?? 0); i++) addUser(`crowd${i}-${tag}@acme.com`, this.crowd);
	}

	private scenarioRec(id: string, slug: string, skillIds: string[], now: number): ScenarioRec {
		return {
			id,
			name: `Oracle ${slug}`,
			description: null,
			slug,
			difficulty: 'medium',
			context: null,
			objective: null,
			language: 'en',
			visibility: 'workspace',
			ownerId: null,
			createdAt: now - 400 * DAY,
			updatedAt: now - 400 * DAY,
			skillIds,
			collectionIds: [],
			archived: false,
			userShares: {},
			groupShares: {},
		};
	}

	everyone(): Member[] {
		return [...this.members, ...this.crowd];
	}

	private user(m: Member): UserRec {
		const u = this.control.store.userById(m.id);
		if (!u) throw new Error(`world: unknown user ${m.email}`);
		return u;
	}

	isMember(m: Member): boolean {
		return this.user(m).member;
	}

	groupsOf(m: Member): string[] {
		return [...this.user(m).groupIds];
	}

	/** The member leaves the workspace (the service reports members only). */
	leave(m: Member): void {
		this.user(m).member = false;
	}

	/** The member comes back. */
	rejoin(m: Member): void {
		this.user(m).member = true;
	}

	setGroups(m: Member, groupIds: string[]): void {
		this.user(m).groupIds = [...groupIds];
	}

	observationsOf(userId: string, skillId: string, knownAt = Infinity): Observation[] {
		return this.observations.filter(
			(o) => o.userId === userId && o.skillId === skillId && o.loggedAt <= knownAt,
		);
	}

	/** The pair as of `asOf`, with what the service knew at `knownAt` (default: as of then). */
	reading(userId: string, skillId: string, asOf: number, knownAt = asOf): Reading {
		return readingOf(this.observationsOf(userId, skillId, knownAt), asOf);
	}

	/**
	 * A score that puts no mean of the pairs it touches on a tier boundary (a float rounding there
	 * would make the expected tier a coin toss): nudged by 0.01 until clear.
	 */
	private clearScore(pairs: Array<[string, string]>, score: number, at: number): number {
		for (let tries = 0; tries < 20; tries++) {
			const candidate = Math.min(100, Math.max(0, Math.round(score * 100) / 100));
			const risky = pairs.some(([userId, skillId]) => {
				const list = [
					...this.observationsOf(userId, skillId),
					{ userId, skillId, score: candidate, at, loggedAt: at, viaSession: false },
				].sort((a, b) => a.at - b.at);
				for (let n = MIN_OBSERVATIONS; n <= list.length; n++) {
					const asOf = list[n - 1].at;
					const r = readingOf(list.slice(0, n), asOf);
					if (r.score !== null && BOUNDARIES.some((b) => Math.abs((r.score as number) - b) < 1e-6))
						return true;
				}
				return false;
			});
			if (!risky) return candidate;
			score = candidate + (candidate >= 100 ? -0.01 : 0.01);
		}
		return score;
	}

	/** A scored roleplay session now: an observation of every skill its scenario evaluates. */
	logSession(m: Member, scenario: Scenario, rawScore: number, now: number): void {
		const at = Math.floor(now / SECOND) * SECOND;
		const score = this.clearScore(
			scenario.skillIds.map((s) => [m.id, s]),
			rawScore,
			at,
		);
		this.control.addSession({ userEmail: m.email, scenario: scenario.id, score });
		this.sessions.push({ userId: m.id, scenarioId: scenario.id, skillIds: scenario.skillIds, at });
		for (const skillId of scenario.skillIds)
			this.observations.push({ userId: m.id, skillId, score, at, loggedAt: now, viaSession: true });
	}

	/** A call logged now, dated `at` (now or earlier). */
	logCall(m: Member, skillId: string, rawScore: number, at: number, now: number): void {
		const when = Math.floor(at / SECOND) * SECOND;
		const score = this.clearScore([[m.id, skillId]], rawScore, when);
		this.control.addObservation({ userEmail: m.email, skillId, score, at: when, kind: 'call' });
		this.observations.push({
			userId: m.id,
			skillId,
			score,
			at: when,
			loggedAt: now,
			viaSession: false,
		});
	}

	/**
	 * The member at `index` (0-based) of the skill's proficiency list as of `asOf` (highest score
	 * first, as the service lists it; close enough to pick someone near a page boundary).
	 */
	rankedAt(skillId: string, asOf: number, index: number): Member {
		const ranked = this.everyone()
			.filter((m) => this.isMember(m))
			.map((m) => ({ m, r: this.reading(m.id, skillId, asOf, Infinity) }))
			.filter(({ r }) => r.count > 0)
			.sort((a, b) => (b.r.score ?? -1) - (a.r.score ?? -1) || a.m.email.localeCompare(b.m.email));
		return ranked[Math.max(0, Math.min(ranked.length - 1, index))].m;
	}

	/** Members with a scored session on a scenario evaluating the skill, created in (after, until]. */
	sessionMembers(skillId: string, after: number, until: number): Set<string> {
		return new Set(
			this.sessions
				.filter((s) => s.skillIds.includes(skillId) && s.at > after && s.at <= until)
				.map((s) => s.userId),
		);
	}
}

/** A score as a test draws it: mostly spread, sometimes just either side of a tier boundary. */
export function drawScore(rand: () => number): number {
	if (rand() < 0.25) {
		const b = BOUNDARIES[Math.floor(rand() * BOUNDARIES.length)];
		return b + (rand() - 0.5) * 0.4;
	}
	return 25 + rand() * 75;
}

/** The UTC instant of a wall-clock time in a time zone (the later one in a fall-back hour). */
export function zonedInstant(
	zone: string,
	y: number,
	month: number,
	d: number,
	h: number,
	min: number,
): number {
	const wall = Date.UTC(y, month - 1, d, h, min);
	let t = wall - offsetOf(zone, wall);
	t = wall - offsetOf(zone, t);
	return t;
}

/** The zone's offset from UTC at an instant, in ms. */
export function offsetOf(zone: string, t: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(t));
	const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const asUtc = Date.UTC(
		get('year'),
		get('month') - 1,
		get('day'),
		get('hour'),
		get('minute'),
		get('second'),
	);
	return asUtc - Math.floor(t / SECOND) * SECOND;
}

/** The local calendar date (y, m, d) of an instant in a zone. */
export function localDate(zone: string, t: number): [number, number, number] {
	const local = new Date(t + offsetOf(zone, t));
	return [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
}
