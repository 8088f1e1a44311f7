import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { SessionRow } from '../../shared/skills/readTiers';
import {
	practisedBySkill,
	readScenarioSkills,
	readTiers,
	readTiersOf,
	withoutMembers,
} from '../../shared/skills/readTiers';
import { apiListPage, mapWhileInTime, MAX_PAGE_SIZE, untilDeadline } from '../../shared/transport';
import type { ProficiencyReading } from '../../shared/skills/tierChange';
import type { SkillMemory, SkillReading } from './compare';
import { editCandidates, unknownMembers, userId } from './compare';
import type { SkillTiersSettings } from './settings';
import type { ReadUnderWay, TiersMemory } from './state';

/**
 * Sessions are read from an hour before the last read: a session listed a little after its
 * created_at (the service writing it late) is still found.
 */
const SESSION_OVERLAP_MS = 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Who practised which skill since the last read (member IDs per skill ID): the sessions created from
 * the last read (less the overlap) to the read's instant, newest first, a page of 100 at a time from
 * `read.sessionsPage` on until the poll's deadline, mapped to skills by their scenarios (one request
 * per 100 scenarios, when a session names one). What a page holds is added to `read.practised` and the
 * next page kept, or undefined once the list is read through. A session listed unscored is no
 * observation yet; its grade is found by the sweep. The list is pinned (created from the last read less the overlap to the read's
 * instant) and newest first, so a session listed late only pushes rows already read onto a later page
 * (read twice, the same members): none is skipped. The scenarios' skills are read again at each poll
 * that meets a session naming a scenario.
 */
export async function readPractisedPages(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
	since: number,
	read: ReadUnderWay,
): Promise<void> {
	const qs = {
		...settings.query,
		start_date: iso(since - SESSION_OVERLAP_MS),
		end_date: iso(read.at),
		sorting: '-created_at',
	};
	let skillsOf: Record<string, string[]> | undefined;
	let pages: number | undefined;
	while (read.sessionsPage !== undefined) {
		const from = read.sessionsPage;
		const batch = Array.from(
			{ length: pages === undefined ? 1 : pages - from + 1 },
			(_, i) => from + i,
		);
		// One page at a time: the pace (50 a minute) bounds the read, and a request sent beside another
		// to a slow service could end after the deadline the first one was measured against.
		const answers = await mapWhileInTime(
			batch,
			1,
			async (page) => await apiListPage<SessionRow>(ctx, '/sessions', qs, page, MAX_PAGE_SIZE),
		);
		const sessions = answers.flatMap((answer) => answer.data);
		if (skillsOf === undefined && sessions.some((s) => String(s.scenario?.id ?? '') !== '')) {
			skillsOf = await untilDeadline(readScenarioSkills(ctx));
			// Out of time: these pages are read again at the next poll.
			if (skillsOf === undefined) return;
		}
		const map = skillsOf ?? {};
		for (const [skillId, members] of practisedBySkill(sessions, (id) => map[id] ?? [])) {
			const kept = read.practised.get(skillId) ?? new Set<string>();
			for (const id of members) kept.add(id);
			read.practised.set(skillId, kept);
		}
		for (const answer of answers) pages = Math.max(pages ?? 0, answer.pagination.total_pages);
		read.sessionsPage = from + answers.length;
		if (answers.length < batch.length) return;
		if (read.sessionsPage > (pages ?? 0)) read.sessionsPage = undefined;
	}
}

/**
 * One skill's reading at the read's instant `now`: every member at a sweep, else the members who
 * practised (`asked`); then `completeReading`.
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
	const rows = sweep
		? await readTiers(ctx, skillId, settings.query, iso(now))
		: await readTiersOf(ctx, skillId, withoutMembers(settings.query), asked, iso(now));
	return await completeReading(ctx, settings, memory, skillId, skill, { sweep, asked, rows, now });
}

/**
 * One page of a sweep read a page at a time (when the whole sweep of a skill does not fit a poll): its
 * members are compared as if they had practised, then `completeReading`. The members the pages miss
 * (a row moved between two polls) are read by name afterwards (poll.ts).
 */
export async function readSweepPage(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
	memory: TiersMemory,
	skillId: string,
	skill: SkillMemory,
	page: number,
	now: number,
): Promise<{ reading: SkillReading; pages: number }> {
	const answer = await apiListPage<ProficiencyReading>(
		ctx,
		`/skills/${skillId}/proficiency`,
		{ ...settings.query, end_date: iso(now) },
		page,
		MAX_PAGE_SIZE,
	);
	const rows = answer.data;
	const reading = await completeReading(ctx, settings, memory, skillId, skill, {
		sweep: false,
		asked: rows.map(userId),
		rows,
		now,
	});
	return { reading, pages: answer.pagination.total_pages };
}

/**
 * A skill's reading from its rows at `now`: then the members the memory does not know, as of the
 * skill's reference (before its first sweep the instant it entered the scope; after, its last sweep or
 * the filters' last edit, less the sessions' overlap, so a session listed late and dated just before
 * is practice); then, when the filters were edited since the skill was last read in full, which of
 * those the former filters held (compare.ts tells whom to ask). Member lists of the former filters are
 * matched here.
 */
async function completeReading(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
	memory: TiersMemory,
	skillId: string,
	skill: SkillMemory,
	read: { sweep: boolean; asked: string[]; rows: ProficiencyReading[]; now: number },
): Promise<SkillReading> {
	const { sweep, asked, rows, now } = read;
	const named = withoutMembers(settings.query);
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
