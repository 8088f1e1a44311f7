import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { readSkills } from '../../shared/skills/readTiers';
import type { SkillRef } from '../../shared/skills/tierChange';
import { changeRecord } from '../../shared/skills/tierChange';
import { POLL_PACE } from '../../shared/transport';
import type { FamilyPoll } from '../family';
import type { Change, SkillMemory } from './compare';
import { compareSkill } from './compare';
import { readPractised, readSkill } from './read';
import { warnIfSweepCannotFit } from './fit';
import { sampleTierChanges } from './sample';
import type { SkillTiersSettings } from './settings';
import { readSkillTiersSettings } from './settings';
import type { SkillTiersState } from './state';
import { decode, encode, readState } from './state';
import { sweepNow } from './sweep';

const iso = (ms: number) => new Date(ms).toISOString();

/** Names for the records: from the skills list when it was read, else one read of it. */
async function skillNames(
	ctx: IPollFunctions,
	listed: SkillRef[] | undefined,
	found: unknown[],
): Promise<Map<string, string>> {
	if (found.length === 0) return new Map();
	const skills = listed ?? (await readSkills(ctx));
	return new Map(skills.map((s) => [s.id, s.name]));
}

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
	 * warns in the log when the sweep cannot fit the day).
	 */
	async read(ctx, settings, stored, readAt) {
		const now = Math.floor(readAt / 1000) * 1000;
		const memory = decode(stored, settings.key);
		// The skills list: every skill when none is chosen; at the first read, names for chosen ones too.
		const listed =
			settings.skillIds.length === 0 || stored.asOf === undefined
				? await readSkills(ctx)
				: undefined;
		const scope = settings.skillIds.length ? settings.skillIds : (listed ?? []).map((s) => s.id);
		for (const id of [...memory.skills.keys()]) if (!scope.includes(id)) memory.skills.delete(id);
		// A skill new to the scope (or every skill at the first read) starts from now.
		for (const id of scope)
			if (!memory.skills.has(id))
				memory.skills.set(id, { entered: now, pairs: new Map(), left: new Set() });
		if (memory.asOf === undefined) {
			await warnIfSweepCannotFit(ctx, settings.query, scope.length, settings.sweepDays);
			memory.asOf = now;
			return { state: encode(memory, settings.key), items: [] };
		}

		// One skill at a time: its reading, then the rules (compare.ts) on what was kept of it.
		const practised = await readPractised(ctx, settings, memory.asOf, now);
		const sweep = sweepNow(memory, scope, now, settings.sweepDays);
		const found: Array<Change & { skillId: string }> = [];
		for (const id of scope) {
			const asked = [...(practised.get(id) ?? [])];
			if (!sweep.has(id) && asked.length === 0) continue;
			const kept = memory.skills.get(id) as SkillMemory;
			const reading = await readSkill(ctx, settings, memory, id, kept, sweep.has(id), asked, now);
			const { skill, changes } = compareSkill(kept, reading);
			memory.skills.set(id, skill);
			found.push(...changes.map((change) => ({ ...change, skillId: id })));
		}
		memory.asOf = now;
		const names = await skillNames(ctx, listed, found);
		const items: INodeExecutionData[] = found.map((change) => {
			const skill = { id: change.skillId, name: names.get(change.skillId) ?? change.skillId };
			const record = changeRecord(skill, change.before, change.row, {
				from: iso(change.from),
				to: iso(now),
			}) as IDataObject;
			return { json: { event: 'tierChanged', ...record } };
		});
		return { state: encode(memory, settings.key), items };
	},
};
