import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ListPage, TransportContext } from '../transport';
import { apiList, apiListPage, mapWithConcurrency, MAX_PAGE_SIZE, readPages } from '../transport';
import type { ProficiencyReading, SkillRef } from './tierChange';
import { lastPractised, memberKey, tierChanges } from './tierChange';

/** Members named in one proficiency read: one page of rows, a URL well under common limits. */
export const USER_CHUNK = MAX_PAGE_SIZE;

export const chunks = <T>(list: T[], size: number): T[][] =>
	Array.from({ length: Math.ceil(list.length / size) }, (_, n) =>
		list.slice(n * size, (n + 1) * size),
	);

export async function readSkills(ctx: TransportContext, itemIndex?: number): Promise<SkillRef[]> {
	const rows = await apiList<IDataObject>(ctx, '/skills', {}, { returnAll: true, itemIndex });
	return rows.map((row) => ({ id: String(row.id), name: String(row.name ?? row.id) }));
}

export async function tiersPage(
	ctx: TransportContext,
	skillId: string,
	qs: IDataObject,
	asOf: string,
	page: number,
	itemIndex?: number,
): Promise<ListPage<ProficiencyReading>> {
	const path = `/skills/${skillId}/proficiency`;
	const query = { ...qs, end_date: asOf };
	return await apiListPage<ProficiencyReading>(ctx, path, query, page, MAX_PAGE_SIZE, itemIndex);
}

/** A reading is read again at most this often when its rows move between its pages. */
const READ_ATTEMPTS = 3;

/**
 * One skill's proficiency as of `asOf` (spec 4.3), every row. A call logged while the pages are read
 * can move a row to a page already read: fewer distinct members than the list's count, or a count that
 * changed between pages, and the reading is taken again, so no member is dropped unseen.
 */
export async function readTiers(
	ctx: TransportContext,
	skillId: string,
	qs: IDataObject,
	asOf: string,
	itemIndex?: number,
): Promise<ProficiencyReading[]> {
	const path = `/skills/${skillId}/proficiency`;
	for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
		// A member read twice is one member: the first reading stands (both are as of `asOf`).
		const read = await readPages<ProficiencyReading>(
			ctx,
			path,
			{ ...qs, end_date: asOf },
			{ concurrency: 2, keep: 'first', keyOf: memberKey, itemIndex },
		);
		if (read.pages <= 1 || (!read.moved && read.rows.length >= read.total)) return read.rows;
	}
	throw new NodeOperationError(
		ctx.getNode(),
		'The proficiency list kept changing while it was read',
		{
			description: `Skill ${skillId} was read ${READ_ATTEMPTS} times and a member's row moved between pages each time (calls or sessions were being logged). Nothing is reported from a reading that may miss a member: run again in a minute.`,
			itemIndex,
		},
	);
}

/**
 * The rows of these members only (`user_ids`, 100 a request), as of `asOf`. The member lists of `qs`
 * are left out: the service would union `user_ids` with them.
 */
export async function readTiersOf(
	ctx: TransportContext,
	skillId: string,
	qs: IDataObject,
	userIds: string[],
	asOf: string,
	itemIndex?: number,
): Promise<ProficiencyReading[]> {
	const rest = { ...qs };
	delete rest.user_ids;
	delete rest.user_emails;
	const read = async (ids: string[]) =>
		await readTiers(ctx, skillId, { ...rest, user_ids: ids.join(',') }, asOf, itemIndex);
	return (await mapWithConcurrency(chunks(userIds, USER_CHUNK), 1, read)).flat();
}

/** The skills each scenario evaluates (`include=skills`, archived ones too): one read per 100 scenarios. */
export async function readScenarioSkills(
	ctx: TransportContext,
	itemIndex?: number,
): Promise<Record<string, string[]>> {
	const rows = await apiList<IDataObject>(
		ctx,
		'/scenarios',
		{ include: 'skills', include_archived: true },
		{ returnAll: true, itemIndex },
	);
	// The item's shape is not shown (spec 2.4): an object with an id, or the id itself.
	const idOf = (skill: unknown) =>
		typeof skill === 'object' && skill !== null ? String((skill as IDataObject).id) : String(skill);
	const skillsOf = (row: IDataObject) => (Array.isArray(row.skills) ? row.skills.map(idOf) : []);
	return Object.fromEntries(rows.map((row) => [String(row.id), skillsOf(row)]));
}

/** A session row as the list gives it (spec: sessions list, not shown; the reference's fields). */
export interface SessionRow {
	user?: IDataObject;
	scenario?: IDataObject;
	score?: number | null;
}

/** Adds who practised each skill to `bySkill`: only scored sessions are observations (spec 4.3). */
export function addPractised(
	bySkill: Map<string, Set<string>>,
	sessions: SessionRow[],
	skillsOf: (scenarioId: string) => string[],
): void {
	for (const session of sessions) {
		const scenarioId = String(session.scenario?.id ?? '');
		const user = String(session.user?.id ?? '');
		if (!scenarioId || !user || session.score === null || session.score === undefined) continue;
		for (const skillId of skillsOf(scenarioId))
			bySkill.set(skillId, (bySkill.get(skillId) ?? new Set<string>()).add(user));
	}
}

/**
 * The tier changes of each skill between `from` and `to`: two pinned readings of the members who had a
 * scored session on the skill in between (calls alone move no one) or, with `everyMember`, of every
 * member practised since `from` (calls too).
 */
export async function tierChangesBetween(
	ctx: TransportContext,
	skills: SkillRef[],
	qs: IDataObject,
	dates: { from: string; to: string },
	options: { everyMember: boolean; itemIndex?: number; limit?: number },
): Promise<IDataObject[]> {
	const { itemIndex } = options;
	const changes: IDataObject[] = [];
	const practised = new Map<string, Set<string>>();
	if (!options.everyMember) {
		const one = skills.length === 1 ? { skill_ids: skills[0].id } : {};
		const sessions = await apiList<SessionRow>(
			ctx,
			'/sessions',
			{ ...qs, ...one, start_date: dates.from, end_date: dates.to, sorting: '-created_at' },
			{ returnAll: true, itemIndex, concurrency: 2 },
		);
		const map =
			skills.length === 1 || sessions.length === 0 ? {} : await readScenarioSkills(ctx, itemIndex);
		addPractised(practised, sessions, (id) =>
			skills.length === 1 ? [skills[0].id] : (map[id] ?? []),
		);
	}
	for (const skill of skills) {
		let members = [...(practised.get(skill.id) ?? [])];
		let after: ProficiencyReading[] = [];
		if (options.everyMember) {
			const from = Date.parse(dates.from);
			after = (await readTiers(ctx, skill.id, qs, dates.to, itemIndex)).filter(
				(row) => lastPractised(row) > from,
			);
			members = after.map(memberKey);
		} else if (members.length)
			after = await readTiersOf(ctx, skill.id, qs, members, dates.to, itemIndex);
		if (members.length === 0) continue;
		const before = await readTiersOf(ctx, skill.id, qs, members, dates.from, itemIndex);
		changes.push(...tierChanges(skill, before, after, dates));
		if (options.limit !== undefined && changes.length >= options.limit) break;
	}
	return changes;
}
