import { createHash } from 'node:crypto';

import type { INodeExecutionData } from 'n8n-workflow';

import { chunks, readSkills, USER_CHUNK } from '../../shared/skills/readTiers';
import type { SkillRef } from '../../shared/skills/tierChange';
import { changeRecord } from '../../shared/skills/tierChange';
import { untilDeadline } from '../../shared/transport';
import type { FamilyPoll } from '../family';
import type { SkillMemory, SkillReading } from './compare';
import { compareSkill } from './compare';
import { warnIfSweepCannotFit } from './fit';
import type { TiersRead } from './read';
import { iso, readPractised, readSkill, readSweepPage } from './read';
import { sampleTierChanges } from './sample';
import type { SkillTiersSettings } from './settings';
import { readSkillTiersSettings } from './settings';
import type { SkillTiersState } from './state';
import { decode, encode, readState } from './state';
import { sweepNow } from './sweep';

const namesOf = (skills: SkillRef[]) => new Map(skills.map((s) => [s.id, s.name]));

/** The form a read was started for: its filters and chosen skills (a digest, short in the state). */
const formOf = (settings: SkillTiersSettings): string =>
	createHash('sha256')
		.update(`${settings.key}|${settings.skillIds.join(',')}`)
		.digest('base64url')
		.slice(0, 12);

export const skillTiersPoll: FamilyPoll<SkillTiersSettings, SkillTiersState> = {
	readSettings: readSkillTiersSettings,

	sample: sampleTierChanges,

	noSample: () => ({
		what: 'Tier Changed',
		hint: 'No tier of the chosen skills and members moved in the last 7 days. Widen the Skills or Filters, or fetch a test event again once a tier has moved.',
	}),

	readState: (staticData, settings) => readState(staticData, settings.key),

	/**
	 * One read, pinned to one instant (whole seconds); the first only records where the trigger starts.
	 * A read the deadline stops is kept (state.ts `ReadUnderWay`) and the next poll goes on with it.
	 */
	async read(ctx, settings, stored, readAt) {
		const memory = decode(stored, settings.key);
		const form = formOf(settings);
		let goingOn = memory.reading?.form === form ? memory.reading : undefined;
		memory.reading = undefined;
		let names: Map<string, string> | undefined;
		let order = [...memory.skills.keys()];
		if (goingOn === undefined || memory.asOf === undefined) {
			const now = Math.floor(readAt / 1000) * 1000;
			// The skills list: every skill when none is chosen; at the first read, names for chosen ones too.
			const listed =
				settings.skillIds.length === 0 || memory.asOf === undefined
					? await readSkills(ctx)
					: undefined;
			if (listed) names = namesOf(listed);
			order = settings.skillIds.length ? settings.skillIds : (listed ?? []).map((s) => s.id);
			for (const id of memory.skills.keys()) if (!order.includes(id)) memory.skills.delete(id);
			// A skill new to the scope (or every skill at the first read) starts from now.
			for (const id of order)
				if (!memory.skills.has(id)) memory.skills.set(id, { entered: now, pairs: new Map() });
			if (memory.asOf === undefined) {
				await warnIfSweepCannotFit(ctx, settings.query, order.length, settings.sweepDays);
				memory.asOf = now;
				return { state: encode(memory, settings.key), items: [] };
			}
			goingOn = {
				at: now,
				form,
				sessionsPage: 1,
				sweep: sweepNow(memory, order, now, settings.sweepDays),
				paged: new Map(),
				finishing: new Set(),
				practised: new Map(),
			};
		}
		const reading = goingOn;
		const now = reading.at;
		const read: TiersRead = { ctx, settings, memory, reading };

		// The sessions, then one skill at a time; each unit done leaves the read.
		const sessionsFrom = reading.sessionsPage;
		await readPractised(read);
		// Whether this poll has read anything yet: a sweep that does not fit a whole poll goes by pages.
		let worked = reading.sessionsPage !== sessionsFrom;
		const items: INodeExecutionData[] = [];
		/** Compares one unit's reading and keeps it; false when it came too late (out of time). */
		const keep = async (id: string, unit: SkillReading | undefined) => {
			if (unit === undefined) return false;
			const { skill, changes } = compareSkill(memory.skills.get(id) as SkillMemory, unit);
			if (changes.length && names === undefined) {
				const listed = await untilDeadline(readSkills(ctx));
				if (listed === undefined) return false;
				names = namesOf(listed);
			}
			memory.skills.set(id, skill);
			const ref = { id, name: names?.get(id) ?? id };
			for (const { before, row, from } of changes) {
				const record = changeRecord(ref, before, row, { from: iso(from), to: iso(now) });
				items.push({ json: { event: 'tierChanged', ...record } });
			}
			worked = true;
			return true;
		};
		/** Reads what is left of one skill, a unit at a time; false when the poll must stop first. */
		const finish = async (id: string): Promise<boolean> => {
			const practised = reading.practised.get(id) ?? new Set<string>();
			reading.practised.set(id, practised);
			if (reading.sweep.has(id) && !reading.paged.has(id)) {
				// The whole sweep at once; when it cannot fit a whole poll, a page at a time from then on.
				const whole = await untilDeadline(readSkill(read, id, true, [...practised]));
				if (whole === undefined && !worked) reading.paged.set(id, { page: 1, seen: new Set() });
				if (!(await keep(id, whole))) return false;
				practised.clear();
				reading.sweep.delete(id);
			}
			const paged = reading.paged.get(id);
			if (paged) {
				for (let pages = paged.page; paged.page <= pages; paged.page++) {
					const unit = await untilDeadline(readSweepPage(read, id, paged.page));
					if (unit === undefined || !(await keep(id, unit.reading))) return false;
					for (const member of unit.reading.asked) paged.seen.add(member);
					pages = unit.pages;
				}
				// Members kept whom no page showed (a row moved between polls, or out of scope now) are
				// read by name with those who practised; those not read have left the scope.
				for (const member of (memory.skills.get(id) as SkillMemory).pairs.keys())
					if (!paged.seen.has(member)) practised.add(member);
				for (const member of paged.seen) practised.delete(member);
				reading.paged.delete(id);
				reading.sweep.delete(id);
				reading.finishing.add(id);
			}
			for (const asked of chunks([...practised], USER_CHUNK)) {
				if (!(await keep(id, await untilDeadline(readSkill(read, id, false, asked))))) return false;
				for (const member of asked) practised.delete(member);
			}
			if (reading.finishing.delete(id))
				memory.skills.set(id, { ...(memory.skills.get(id) as SkillMemory), swept: now });
			reading.practised.delete(id);
			return true;
		};
		let done = reading.sessionsPage === undefined;
		for (let n = 0; done && n < order.length; n++) done = await finish(order[n]);
		if (done) memory.asOf = now;
		else memory.reading = reading;
		return { state: encode(memory, settings.key), items };
	},
};
