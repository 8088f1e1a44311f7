import type { IDataObject } from 'n8n-workflow';

import type { ProficiencyReading } from '../../shared/skills/tierChange';
import type { SkillMemory } from './compare';
import { userId } from './compare';

// The read's rules beside compare.ts's (docs/triggers.md, Skill Tiers), pure: which instant a member
// the memory does not know is read as of, who the filters before an edit held, and the read's order.
// Which skills to sweep is sweep.ts. Table tests: test/trigger/skillTiersRules.test.ts.

const HOUR = 3_600_000;

/** Sessions are read from an hour before the last read: one the service lists late is still found. */
export const SESSION_OVERLAP_MS = HOUR;

/**
 * The instant a member the memory does not know is read as of (the skill's reference): when the skill
 * entered the scope, else its last sweep or filter edit less the sessions' overlap (a session listed
 * late and dated just before is practice).
 */
export const referenceOf = (skill: SkillMemory, keyAt: number | undefined): number =>
	skill.swept === undefined
		? skill.entered
		: Math.max(skill.swept, keyAt ?? 0) - SESSION_OVERLAP_MS;

/**
 * Of `rows` (read by ID: the groups already applied by the service), those the filters `key` (a stored
 * query) hold: the named members and e-mails, which a read by ID leaves out (spec 4.0: the service would
 * union them with the IDs), applied here.
 */
export function heldBy(key: string, rows: ProficiencyReading[]): ProficiencyReading[] {
	const query = JSON.parse(key) as IDataObject;
	const listed = (name: string) =>
		typeof query[name] === 'string' ? (query[name] as string).split(',') : undefined;
	const userIds = listed('user_ids');
	const emails = listed('user_emails')?.map((e) => e.toLowerCase());
	if (userIds === undefined && emails === undefined) return rows;
	return rows.filter(
		(row) =>
			userIds?.includes(userId(row)) ||
			emails?.includes(String(row.user.email ?? '').toLowerCase()),
	);
}

/**
 * Of `candidates`, those the filters before their last edit (`formerKey`, a stored query) left out,
 * from the candidates' rows read under those filters (`heldBy`).
 */
export function leftOutByFormer(
	formerKey: string,
	rows: ProficiencyReading[],
	candidates: string[],
): Set<string> {
	const held = new Set(heldBy(formerKey, rows).map(userId));
	return new Set(candidates.filter((id) => !held.has(id)));
}

/**
 * A read finishes within the hour it began: a sweep unit (a skill, or its next page) starts only in the
 * read's first 50 minutes, so the poll under way then ends inside the hour (n8n gives a poll 5 minutes
 * at most); the members who practised are read whatever the time, and the sweep left over waits for the
 * next read.
 */
export const READ_HOUR_MS = HOUR;
const SWEEP_WINDOW_MS = 50 * 60_000;

/** Whether a sweep unit may start at `now` in the read begun at `readAt`. */
export const maySweep = (now: number, readAt: number): boolean => now < readAt + SWEEP_WINDOW_MS;

/** A read's progress as the order sees it (state.ts `ReadUnderWay`). */
export interface ReadProgress {
	sweep: Set<string>;
	finishing: Set<string>;
	practised: Map<string, Set<string>>;
}

/** One unit of the read's order: a skill's members who practised, or its sweep. */
export interface ReadStep {
	skill: string;
	sweep: boolean;
}

/**
 * The read's order: the members who practised, skill by skill, first; then the sweep (changes from
 * calls alone). So a read the poll's budget or the read's hour cuts never holds back the practised
 * members behind a sweep. A sweep's own members left to read by name (`finishing`) are part of it.
 */
export function readOrder(scope: string[], read: ReadProgress): ReadStep[] {
	const practised = scope.filter(
		(id) => !read.finishing.has(id) && (read.practised.get(id)?.size ?? 0) > 0,
	);
	const swept = scope.filter((id) => read.sweep.has(id) || read.finishing.has(id));
	return [
		...practised.map((skill) => ({ skill, sweep: false })),
		...swept.map((skill) => ({ skill, sweep: true })),
	];
}
