import type { INodeExecutionData } from 'n8n-workflow';

import { chunks, readSkills, USER_CHUNK } from '../../shared/skills/readTiers';
import type { SkillRef } from '../../shared/skills/tierChange';
import { changeRecord } from '../../shared/skills/tierChange';
import type { SkillMemory, SkillReading } from './compare';
import { compareSkill } from './compare';
import type { TiersRead } from './read';
import { iso, readSkill, readSweepPage } from './read';

// The units of one read (rules.ts `readOrder` says in which order): a skill's members who practised,
// 100 a request, and a skill's sweep. Each unit done leaves the read under way; each returns false
// when the poll's deadline stops it first, and the next poll goes on from there.

/** One poll's part of a read: its skills in order, the names for records, the items so far. */
export interface TierRun extends TiersRead {
	order: string[];
	names?: Map<string, string>;
	items: INodeExecutionData[];
}

export const namesOf = (skills: SkillRef[]) => new Map(skills.map((s) => [s.id, s.name]));

/** Compares one unit's reading and keeps it; false when it came too late (out of time). */
async function keep(run: TierRun, id: string, unit: SkillReading | undefined): Promise<boolean> {
	if (unit === undefined) return false;
	const { memory, reading } = run;
	const { skill, changes } = compareSkill(memory.skills.get(id) as SkillMemory, unit);
	if (changes.length && run.names === undefined) {
		const listed = await run.poll.step(readSkills(run.ctx));
		if (listed === undefined) return false;
		run.names = namesOf(listed);
	}
	memory.skills.set(id, skill);
	const ref = { id, name: run.names?.get(id) ?? id };
	for (const { before, row, from } of changes) {
		const record = changeRecord(ref, before, row, { from: iso(from), to: iso(reading.at) });
		run.items.push({ json: { event: 'tierChanged', ...record } });
	}
	return true;
}

/** The members of a skill still to read by name (those who practised), 100 a request. */
export async function readPractisedOf(run: TierRun, id: string): Promise<boolean> {
	const practised = run.reading.practised.get(id) ?? new Set<string>();
	for (const asked of chunks([...practised], USER_CHUNK)) {
		if (!(await keep(run, id, await run.poll.step(readSkill(run, id, asked))))) return false;
		for (const member of asked) practised.delete(member);
	}
	run.reading.practised.delete(id);
	return true;
}

/**
 * A skill's sweep, a page at a time (each page compared and kept as it comes, so a sweep the deadline
 * cuts goes on at the next poll from the page after the last one kept, issue 55), then the kept members
 * no page showed, by name (a row moved between pages or polls, or out of scope now).
 */
export async function sweepSkill(run: TierRun, id: string): Promise<boolean> {
	const { reading, memory } = run;
	if (reading.sweep.has(id) && !reading.paged.has(id))
		reading.paged.set(id, { page: 1, seen: new Set() });
	const paged = reading.paged.get(id);
	if (paged) {
		for (let pages = paged.page; paged.page <= pages; paged.page++) {
			const unit = await run.poll.step(readSweepPage(run, id, paged.page));
			if (unit === undefined || !(await keep(run, id, unit.reading))) return false;
			for (const member of unit.reading.asked) paged.seen.add(member);
			pages = unit.pages;
		}
		const unseen = [...(memory.skills.get(id) as SkillMemory).pairs.keys()].filter(
			(member) => !paged.seen.has(member),
		);
		reading.practised.set(id, new Set(unseen));
		reading.paged.delete(id);
		reading.sweep.delete(id);
		reading.finishing.add(id);
	}
	if (!(await readPractisedOf(run, id))) return false;
	if (reading.finishing.delete(id))
		memory.skills.set(id, { ...(memory.skills.get(id) as SkillMemory), swept: reading.at });
	return true;
}
