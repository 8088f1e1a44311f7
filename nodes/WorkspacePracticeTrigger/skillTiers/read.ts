import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { SessionRow } from '../../shared/skills/readTiers';
import {
	addPractised,
	readScenarioSkills,
	readTiersOf,
	tiersPage,
} from '../../shared/skills/readTiers';
import type { ProficiencyReading } from '../../shared/skills/tierChange';
import { lastPractised } from '../../shared/skills/tierChange';
import { readPages } from '../../shared/transport';
import type { PollRead } from '../family';
import type { SkillMemory, SkillReading } from './compare';
import { editCandidates, unknownMembers, userId } from './compare';
import { heldBy, leftOutByFormer, referenceOf, SESSION_OVERLAP_MS } from './rules';
import type { SkillTiersSettings } from './settings';
import type { ReadUnderWay, TiersMemory } from './state';

export const iso = (ms: number) => new Date(ms).toISOString();

/** One read: the form, the memory, and the read under way (every request is as of its instant). */
export interface TiersRead {
	ctx: IPollFunctions;
	/** This poll's part of it (family.ts): its steps stop at the deadline. */
	poll: PollRead;
	settings: SkillTiersSettings;
	memory: TiersMemory;
	reading: ReadUnderWay;
}

const namesScenario = (session: SessionRow) => String(session.scenario?.id ?? '') !== '';

/**
 * Who practised which skill since the last read, into `reading.practised`: the sessions pinned and
 * newest first (a session listed late only pushes rows onto a later page), a page at a time (a request
 * beside another to a slow service could end past the deadline). The scenarios' skills are read once a
 * page names a scenario: the walk stops there for them.
 */
export async function readPractised(read: TiersRead): Promise<void> {
	const { ctx, settings, memory, reading, poll } = read;
	const qs = {
		...settings.query,
		start_date: iso((memory.asOf ?? reading.at) - SESSION_OVERLAP_MS),
		end_date: iso(reading.at),
		sorting: '-created_at',
	};
	let skillsOf: Record<string, string[]> | undefined;
	while (reading.sessionsPage !== undefined) {
		const walk = await readPages<SessionRow>(ctx, '/sessions', qs, {
			from: reading.sessionsPage,
			resumable: true,
			until: (page) => skillsOf === undefined && page.data.some(namesScenario),
		});
		if (skillsOf === undefined && walk.rows.some(namesScenario)) {
			skillsOf = await poll.step(readScenarioSkills(ctx));
			// Out of time: these pages are read again at the next poll.
			if (skillsOf === undefined) return;
		}
		addPractised(reading.practised, walk.rows, (id) => skillsOf?.[id] ?? []);
		reading.sessionsPage = walk.next;
		if (walk.cut) return;
	}
}

/**
 * One skill's reading of the members asked for (those who practised, or the kept members a sweep's
 * pages did not show): a member the filters no longer hold has no row (left the scope).
 */
export async function readSkill(
	read: TiersRead,
	skillId: string,
	asked: string[],
): Promise<SkillReading> {
	const { ctx, settings, reading } = read;
	const rows = await readTiersOf(ctx, skillId, settings.query, asked, iso(reading.at));
	return await completeReading(read, skillId, asked, heldBy(settings.key, rows));
}

/**
 * One page of a sweep (steps.ts `sweepSkill`): its members, as if they had practised. The rows of
 * members the memory does not know who practised since the skill's reference are left for later
 * (`later`): the sweep reads them as of the reference 100 at a time across pages (`readAsBefore`),
 * rather than one request more on nearly every page of a first sweep (issue 55).
 */
export async function readSweepPage(
	read: TiersRead,
	skillId: string,
	page: number,
): Promise<{ reading: SkillReading; pages: number; later: ProficiencyReading[] }> {
	const { ctx, settings, memory, reading } = read;
	const answer = await tiersPage(ctx, skillId, settings.query, iso(reading.at), page);
	const skill = memory.skills.get(skillId) as SkillMemory;
	const later = unknownRows(skill, answer.data, referenceOf(skill, memory.keyAt)).moved;
	const rows = answer.data.filter((row) => !later.includes(row));
	return {
		reading: await completeReading(read, skillId, rows.map(userId), rows),
		pages: answer.pagination.total_pages,
		later,
	};
}

/** The reading of rows a sweep's pages held back (steps.ts `sweepSkill`): as of the reference. */
export const readAsBefore = async (read: TiersRead, skillId: string, rows: ProficiencyReading[]) =>
	await completeReading(read, skillId, rows.map(userId), rows);

/**
 * Of `rows`, those of members the memory does not know: who practised since `reference` (`moved`), and
 * the others, who stand as they did then (`asBefore`): a score is a weighted mean of the observations
 * (spec 4.3), and theirs are the same then and now, so their rows as of the reference are these rows.
 */
function unknownRows(skill: SkillMemory, rows: ProficiencyReading[], reference: number) {
	const unknown = new Set(unknownMembers(skill, rows));
	const of = rows.filter((row) => unknown.has(userId(row)));
	return {
		moved: of.filter((row) => lastPractised(row) >= reference),
		asBefore: of.filter((row) => lastPractised(row) < reference),
	};
}

/**
 * A skill's reading from its rows, with the members the memory does not know as of its reference: read
 * for those who practised since, the rows themselves for the others (`unknownRows`).
 */
async function completeReading(
	read: TiersRead,
	skillId: string,
	asked: string[],
	rows: ProficiencyReading[],
): Promise<SkillReading> {
	const { ctx, settings, memory } = read;
	const now = read.reading.at;
	const skill = memory.skills.get(skillId) as SkillMemory;
	const reference = referenceOf(skill, memory.keyAt);
	const { moved, asBefore } = unknownRows(skill, rows, reference);
	const then = [
		...(moved.length
			? await readTiersOf(ctx, skillId, settings.query, moved.map(userId), iso(reference))
			: []),
		...asBefore,
	];
	const candidates = editCandidates(skill, memory.keyAt, rows, then);
	const outOfFormerScope = await leftOutBefore(read, skillId, candidates);
	return { now, sweep: false, asked, rows, reference, then, outOfFormerScope };
}

/** Of `candidates`, those the filters before their last edit (`keyBefore`) left out. */
async function leftOutBefore(
	{ ctx, memory, reading }: TiersRead,
	skillId: string,
	candidates: string[],
): Promise<Set<string>> {
	if (memory.keyBefore === undefined || candidates.length === 0) return new Set();
	const query = JSON.parse(memory.keyBefore) as IDataObject;
	const rows = await readTiersOf(ctx, skillId, query, candidates, iso(reading.at));
	return leftOutByFormer(memory.keyBefore, rows, candidates);
}
