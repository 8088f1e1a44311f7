import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import {
	practisedBySkill,
	readScenarioSkills,
	readSessions,
	readTiers,
	readTiersOf,
	withoutMembers,
} from '../../shared/skills/readTiers';
import type { SkillMemory, SkillReading } from './compare';
import { editCandidates, unknownMembers, userId } from './compare';
import type { SkillTiersSettings } from './settings';
import type { TiersMemory } from './state';

/**
 * Sessions are read from an hour before the last read: a session listed a little after its
 * created_at (the service writing it late) is still found.
 */
const SESSION_OVERLAP_MS = 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Who practised which skill since the last read (member IDs per skill ID): the sessions created from
 * the last read (less the overlap) to `to`, newest first (one request per 100), mapped to skills by
 * their scenarios (one request per 100 scenarios, when a session names one). A session listed
 * unscored is no observation yet; its grade is found by the sweep.
 */
export async function readPractised(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
	since: number,
	to: number,
): Promise<Map<string, Set<string>>> {
	const sessions = await readSessions(
		ctx,
		settings.query,
		iso(since - SESSION_OVERLAP_MS),
		iso(to),
	);
	const named = sessions.some((s) => String(s.scenario?.id ?? '') !== '');
	const map = named ? await readScenarioSkills(ctx) : {};
	return practisedBySkill(sessions, (id) => map[id] ?? []);
}

/**
 * One skill's reading at the read's instant `now`: every member at a sweep, else the members who
 * practised (`asked`); then the members the memory does not know, as of the skill's reference (before
 * its first sweep the instant it entered the scope; after, its last sweep or the filters' last edit,
 * less the sessions' overlap, so a session listed late and dated just before is practice); then, when
 * the filters were edited since the skill was last read in full, which of those the former filters
 * held (compare.ts tells whom to ask). Member lists of the former filters are matched here.
 */
export async function readSkill(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
	memory: TiersMemory,
	skillId: string,
	skill: SkillMemory,
	sweep: boolean,
	asked: string[],
	now: number,
): Promise<SkillReading> {
	const named = withoutMembers(settings.query);
	const rows = sweep
		? await readTiers(ctx, skillId, settings.query, iso(now))
		: await readTiersOf(ctx, skillId, named, asked, iso(now));
	const reference =
		skill.swept === undefined
			? skill.entered
			: Math.max(skill.swept, memory.keyAt ?? 0) - SESSION_OVERLAP_MS;
	const unknown = unknownMembers(skill, rows);
	const then = unknown.length
		? await readTiersOf(ctx, skillId, named, unknown, iso(reference))
		: [];
	const candidates =
		memory.keyBefore === undefined ? [] : editCandidates(skill, memory.keyAt, rows, then);
	const outOfFormerScope = new Set<string>();
	if (candidates.length && memory.keyBefore !== undefined) {
		const query = JSON.parse(memory.keyBefore) as IDataObject;
		const listed = (name: string) =>
			typeof query[name] === 'string' ? (query[name] as string).split(',') : undefined;
		const userIds = listed('user_ids');
		const emails = listed('user_emails')?.map((e) => e.toLowerCase());
		const formerly = await readTiersOf(ctx, skillId, withoutMembers(query), candidates, iso(now));
		const held = new Set(
			formerly
				.filter(
					(row) =>
						(userIds === undefined && emails === undefined) ||
						userIds?.includes(userId(row)) ||
						emails?.includes(String(row.user.email ?? '').toLowerCase()),
				)
				.map(userId),
		);
		for (const id of candidates) if (!held.has(id)) outOfFormerScope.add(id);
	}
	return { now, sweep, asked, rows, reference, then, outOfFormerScope };
}
