/** Scenario analytics and skill proficiency computed from sessions and observations. */
import type { ProficiencyTier, Rank } from '../schemas';
import { rankFor } from './seed';
import type { ObservationRec, SessionRec } from './types';

export const HALF_LIFE_DAYS = 30;
export const MIN_OBSERVATIONS = 3;
const DAY = 86_400_000;

export const round1 = (n: number): number => Math.round(n * 10) / 10;
export const round2 = (n: number): number => Math.round(n * 100) / 100;

export interface ParticipantStats {
	userId: string;
	session_count: number;
	first_score: number;
	first_rank: Rank;
	best_score: number;
	best_rank: Rank;
	/** Points gained from the first to the best score (best - first). */
	lift_percentage: number;
	total_duration_seconds: number;
}

/** One row per user from that user's valid (graded) sessions. */
export function participantStats(sessions: SessionRec[]): ParticipantStats[] {
	const byUser = new Map<string, SessionRec[]>();
	for (const s of sessions) {
		if (!s.valid || s.score === null) continue;
		const list = byUser.get(s.userId) ?? [];
		list.push(s);
		byUser.set(s.userId, list);
	}
	return [...byUser.entries()].map(([userId, list]) => {
		list.sort((a, b) => a.createdAt - b.createdAt);
		const first = list[0].score as number;
		const best = Math.max(...list.map((s) => s.score as number));
		return {
			userId,
			session_count: list.length,
			first_score: first,
			first_rank: rankFor(first),
			best_score: best,
			best_rank: rankFor(best),
			lift_percentage: round1(best - first),
			total_duration_seconds: list.reduce((sum, s) => sum + (s.durationSeconds ?? 0), 0),
		};
	});
}

export function tierFor(score: number | null): ProficiencyTier {
	if (score === null) return 'insufficient_data';
	if (score >= 90) return 'excellent';
	if (score >= 75) return 'proficient';
	if (score >= 50) return 'developing';
	return 'needs_work';
}

export interface Proficiency {
	userId: string;
	/** Unrounded: the tier is taken from it (spec 4.3 rule 3); the API returns it rounded to 2 decimals. */
	score: number | null;
	tier: ProficiencyTier;
	observation_count: number;
	lastAt: number;
}

/**
 * Time-decayed proficiency as of `asOf`: each observation weighs 0.5^(age/30 days); the score is the
 * weighted mean (equal scores exactly themselves) and the tier uses it unrounded (89.96 is
 * proficient; the API shows it as 89.96).
 * Observations after `asOf` are ignored. Fewer than 3 observations: no score. A scored roleplay
 * session is an observation of each skill its scenario evaluates (practice.ts), as a call is.
 */
export function proficiency(observations: ObservationRec[], asOf: number): Proficiency[] {
	const byUser = new Map<string, ObservationRec[]>();
	for (const o of observations) {
		if (o.at > asOf) continue;
		const list = byUser.get(o.userId) ?? [];
		list.push(o);
		byUser.set(o.userId, list);
	}
	return [...byUser.entries()].map(([userId, list]) => {
		let score: number | null = null;
		if (list.length >= MIN_OBSERVATIONS) {
			// Weighted deviations from one of the scores, so equal scores average to exactly themselves
			// (Σw·75 / Σw can be 74.99999999999999, a tier lower: issue 57).
			const base = list[0].score;
			let weighted = 0;
			let weights = 0;
			for (const o of list) {
				const w = Math.pow(0.5, (asOf - o.at) / DAY / HALF_LIFE_DAYS);
				weighted += w * (o.score - base);
				weights += w;
			}
			score = base + weighted / weights;
		}
		return {
			userId,
			score,
			tier: tierFor(score),
			observation_count: list.length,
			lastAt: Math.max(...list.map((o) => o.at)),
		};
	});
}
