import type { INodeExecutionData } from 'n8n-workflow';

import { chunks, readSkills, USER_CHUNK } from '../../shared/skills/readTiers';
import type { ProficiencyReading, SkillRef } from '../../shared/skills/tierChange';
import { changeRecord } from '../../shared/skills/tierChange';
import type { SkillMemory, SkillReading } from './compare';
import { compareSkill, userId } from './compare';
import type { TiersRead } from './read';
import { iso, readAsBefore, readSkill, readSweepPage } from './read';

// The units of one read (rules.ts `readOrder` says in which order): a skill's members who practised,
// 100 a request, and a skill's sweep. Each unit done leaves the read under way; each returns false
// when the poll's deadline stops it first, and the next poll goes on from there.

/** One poll's part of a read: its skills in order, the names for records, the items so far. */
export interface TierRun extends TiersRead {
	order: string[];
	names?: Map<string, string>;
	items: INodeExecutionData[];
	/** A sweep's rows held back for one reading as of the reference (`sweepSkill`): this poll only. */
	held: ProficiencyReading[];
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
 * no page showed, by name (a row moved between pages or polls, or out of scope now). The members new to
 * the memory who practised since the skill's reference (read.ts `readSweepPage`) are held back and read
 * as of the reference 100 a request across pages (`held`), not one request more on nearly every page of
 * a first sweep; those a cut leaves held are read by name with the unseen.
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
			hold(run, id, unit.later);
			for (const member of unit.reading.asked) paged.seen.add(member);
			if (!(await readHeld(run, id, true))) return false;
			pages = unit.pages;
		}
		const unseen = [...(memory.skills.get(id) as SkillMemory).pairs.keys()].filter(
			(member) => !paged.seen.has(member),
		);
		reading.practised.set(id, new Set([...(reading.practised.get(id) ?? []), ...unseen]));
		reading.paged.delete(id);
		reading.sweep.delete(id);
		reading.finishing.add(id);
	}
	if (!(await readHeld(run, id)) || !(await readPractisedOf(run, id))) return false;
	if (reading.finishing.delete(id))
		memory.skills.set(id, { ...(memory.skills.get(id) as SkillMemory), swept: reading.at });
	return true;
}

/** Holds a page's members left for later; the read's progress names them too, should a cut lose them. */
function hold(run: TierRun, id: string, rows: ProficiencyReading[]): void {
	const { reading, held } = run;
	const later = reading.practised.get(id) ?? new Set<string>();
	for (const row of rows) {
		later.add(userId(row));
		reading.paged.get(id)?.seen.add(userId(row));
		held.push(row);
	}
	if (later.size > 0) reading.practised.set(id, later);
}

/** The held members of a skill's sweep, as of its reference, 100 a request (`whole`: full ones only). */
async function readHeld(run: TierRun, id: string, whole = false): Promise<boolean> {
	while (run.held.length >= (whole ? USER_CHUNK : 1)) {
		const rows = run.held.slice(0, USER_CHUNK);
		if (!(await keep(run, id, await run.poll.step(readAsBefore(run, id, rows))))) return false;
		run.held.splice(0, rows.length);
		for (const row of rows) run.reading.practised.get(id)?.delete(userId(row));
	}
	return true;
}
