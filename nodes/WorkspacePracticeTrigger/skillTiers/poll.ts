import { createHash } from 'node:crypto';

import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { readSkills, USER_CHUNK } from '../../shared/skills/readTiers';
import type { SkillRef } from '../../shared/skills/tierChange';
import { changeRecord } from '../../shared/skills/tierChange';
import { POLL_PACE, untilDeadline } from '../../shared/transport';
import type { FamilyPoll } from '../family';
import type { Change, SkillMemory, SkillReading } from './compare';
import { compareSkill } from './compare';
import { readPractisedPages, readSkill, readSweepPage } from './read';
import { warnIfSweepCannotFit } from './fit';
import { sampleTierChanges } from './sample';
import type { SkillTiersSettings } from './settings';
import { readSkillTiersSettings } from './settings';
import type { ReadUnderWay, SkillTiersState } from './state';
import { decode, encode, readState } from './state';
import { sweepNow } from './sweep';

const iso = (ms: number) => new Date(ms).toISOString();

/** Names for the records, when the skills list was not read at the start: one read of it. */
async function skillNames(ctx: IPollFunctions): Promise<Map<string, string>> {
	return new Map((await readSkills(ctx)).map((s) => [s.id, s.name]));
}

/** The form a read was started for: its filters and chosen skills (a digest, short in the state). */
const formOf = (settings: SkillTiersSettings): string =>
	createHash('sha256')
		.update(`${settings.key}|${settings.skillIds.join(',')}`)
		.digest('base64url')
		.slice(0, 12);

const chunks = <T>(list: T[], size: number): T[][] =>
	Array.from({ length: Math.ceil(list.length / size) }, (_, n) =>
		list.slice(n * size, (n + 1) * size),
	);

export const skillTiersPoll: FamilyPoll<SkillTiersSettings, SkillTiersState> = {
	readSettings: readSkillTiersSettings,

	sample: sampleTierChanges,

	noSample: () => ({
		what: 'Tier Changed',
		hint: 'No tier of the chosen skills and members moved in the last 7 days. Widen the Skills or Filters, or fetch a test event again once a tier has moved.',
	}),

	readState: (staticData, settings) => readState(staticData, settings.key),

	// Its proficiency reads come in a burst (a request per skill practised, the sweep's pages).
	pace: POLL_PACE,

	/**
	 * One read, pinned to one instant (whole seconds): the sessions since the last read tell who
	 * practised which skill; those members are read; a few skills are swept in full (calls); each
	 * member compared with what was last reported. The first read records where the trigger starts (and
	 * warns in the log when the sweep cannot fit the day). A read the poll's deadline stops keeps what
	 * is left of it (state.ts `ReadUnderWay`) and the next poll goes on with it, as of the same instant;
	 * only when every skill is done does the memory move to that instant.
	 */
	async read(ctx, settings, stored, readAt) {
		const memory = decode(stored, settings.key);
		const form = formOf(settings);
		let reading = memory.reading?.form === form ? memory.reading : undefined;
		memory.reading = undefined;
		let listed: SkillRef[] | undefined;
		let order: string[];
		if (reading === undefined || memory.asOf === undefined) {
			const now = Math.floor(readAt / 1000) * 1000;
			// The skills list: every skill when none is chosen; at the first read, names for chosen ones too.
			listed =
				settings.skillIds.length === 0 || memory.asOf === undefined
					? await readSkills(ctx)
					: undefined;
			order = settings.skillIds.length ? settings.skillIds : (listed ?? []).map((s) => s.id);
			for (const id of [...memory.skills.keys()]) if (!order.includes(id)) memory.skills.delete(id);
			// A skill new to the scope (or every skill at the first read) starts from now.
			for (const id of order)
				if (!memory.skills.has(id))
					memory.skills.set(id, { entered: now, pairs: new Map(), left: new Set() });
			if (memory.asOf === undefined) {
				await warnIfSweepCannotFit(ctx, settings.query, order.length, settings.sweepDays);
				memory.asOf = now;
				return { state: encode(memory, settings.key), items: [] };
			}
			const sweep = sweepNow(memory, order, now, settings.sweepDays);
			reading = {
				at: now,
				form,
				sessionsPage: 1,
				sweep,
				paged: new Map(),
				finishing: new Set(),
				practised: new Map(),
			};
		} else order = [...memory.skills.keys()];
		const now = reading.at;

		// The sessions list, a page at a time, then one skill at a time: its reading, then the rules
		// (compare.ts) on what was kept of it. Each unit done leaves the read; the deadline stops between.
		const sessionsFrom = reading.sessionsPage;
		await readPractisedPages(ctx, settings, memory.asOf, reading);
		// Whether this poll has read anything yet: a sweep that does not fit a whole poll goes by pages.
		let worked = reading.sessionsPage !== sessionsFrom;
		const found: Array<Change & { skillId: string }> = [];
		let names = listed && new Map(listed.map((s) => [s.id, s.name]));
		let stopped = reading.sessionsPage !== undefined;
		/** Compares one unit's reading and keeps it; false when it came too late (out of time). */
		const keep = async (id: string, kept: SkillMemory, read: SkillReading | undefined) => {
			if (read === undefined) return false;
			const { skill, changes } = compareSkill(kept, read);
			names ??= changes.length ? await untilDeadline(skillNames(ctx)) : undefined;
			if (changes.length && names === undefined) return false;
			memory.skills.set(id, skill);
			found.push(...changes.map((change) => ({ ...change, skillId: id })));
			worked = true;
			return true;
		};
		/** Reads what is left of one skill, a unit at a time; false when the poll must stop first. */
		const finish = async (id: string, read: ReadUnderWay): Promise<boolean> => {
			const practised = read.practised.get(id) ?? new Set<string>();
			read.practised.set(id, practised);
			if (read.sweep.has(id) && !read.paged.has(id)) {
				// The whole sweep at once; when it cannot fit a whole poll, a page at a time from then on.
				const kept = memory.skills.get(id) as SkillMemory;
				const whole = await untilDeadline(
					readSkill(ctx, settings, memory, id, kept, true, [...practised], now),
				);
				if (whole === undefined && !worked) read.paged.set(id, { page: 1, seen: new Set() });
				if (!(await keep(id, kept, whole))) return false;
				practised.clear();
				read.sweep.delete(id);
			}
			const paged = read.paged.get(id);
			if (paged) {
				for (let pages = paged.page; paged.page <= pages; ) {
					const kept = memory.skills.get(id) as SkillMemory;
					const unit = await untilDeadline(
						readSweepPage(ctx, settings, memory, id, kept, paged.page, now),
					);
					if (!(await keep(id, kept, unit?.reading))) return false;
					for (const member of unit?.reading.asked ?? []) paged.seen.add(member);
					pages = unit?.pages ?? 0;
					paged.page++;
				}
				// Members kept whom no page showed (a row moved between polls, or out of scope now) are
				// read by name with those who practised; those not read have left the scope.
				for (const member of (memory.skills.get(id) as SkillMemory).pairs.keys())
					if (!paged.seen.has(member)) practised.add(member);
				for (const member of paged.seen) practised.delete(member);
				read.paged.delete(id);
				read.sweep.delete(id);
				read.finishing.add(id);
			}
			for (const asked of chunks([...practised], USER_CHUNK)) {
				const kept = memory.skills.get(id) as SkillMemory;
				const unit = await untilDeadline(
					readSkill(ctx, settings, memory, id, kept, false, asked, now),
				);
				if (!(await keep(id, kept, unit))) return false;
				for (const member of asked) practised.delete(member);
			}
			if (read.finishing.delete(id))
				memory.skills.set(id, { ...(memory.skills.get(id) as SkillMemory), swept: now });
			read.practised.delete(id);
			return true;
		};
		for (const id of stopped ? [] : order)
			if (!(await finish(id, reading))) {
				stopped = true;
				break;
			}
		if (stopped) memory.reading = reading;
		else memory.asOf = now;
		const items: INodeExecutionData[] = found.map((change) => {
			const skill = { id: change.skillId, name: names?.get(change.skillId) ?? change.skillId };
			const record = changeRecord(skill, change.before, change.row, {
				from: iso(change.from),
				to: iso(now),
			}) as IDataObject;
			return { json: { event: 'tierChanged', ...record } };
		});
		return { state: encode(memory, settings.key), items };
	},
};
