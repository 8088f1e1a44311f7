import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readSkills, readTiers, skillTierChanges } from '../../shared/skills/readTiers';
import type { SkillRef } from '../../shared/skills/tierChange';
import { tierChanges } from '../../shared/skills/tierChange';
import type { FamilyPoll } from '../family';
import type { SkillTiersSettings } from './settings';
import { readSkillTiersSettings } from './settings';
import type { SkillTiersState, TierMap } from './state';
import { fromStored, MAX_TIERS, readState, tierCount, toStored } from './state';

const WEEK = 7 * 86_400_000;
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();

/** The skills in scope: the chosen ones (names from the list), or every skill. */
async function skillsInScope(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
): Promise<SkillRef[]> {
	const all = await readSkills(ctx);
	if (settings.skillIds.length === 0) return all;
	return settings.skillIds.map((id) => all.find((s) => s.id === id) ?? { id, name: id });
}

const toItems = (changes: IDataObject[]): INodeExecutionData[] =>
	changes.map((change) => ({ json: { event: 'tierChanged', ...change } }));

export const skillTiersPoll: FamilyPoll<SkillTiersSettings, SkillTiersState> = {
	readSettings: readSkillTiersSettings,

	/** A manual run: the changes of the last 7 days on the first skill that has some, to map fields. */
	async sample(ctx, settings) {
		const now = Date.now();
		for (const skill of await skillsInScope(ctx, settings)) {
			const changes = await skillTierChanges(ctx, skill, settings.query, {
				from: iso(now - WEEK),
				to: iso(now),
			});
			if (changes.length > 0) return toItems(changes);
		}
		return [];
	},

	noSample: () => ({
		what: 'Tier Changed',
		hint: 'No tier of the chosen skills and members moved in the last 7 days. Widen the Skills or Filters, or fetch a test event again once a tier has moved.',
	}),

	readState: (staticData, settings) => readState(staticData, settings.key),

	async read(ctx, settings, stored, readAt) {
		const tiers: TierMap = {};
		const items: INodeExecutionData[] = [];
		for (const skill of await skillsInScope(ctx, settings)) {
			// No as-of date: the service's own now, the same clock its observations carry.
			const rows = await readTiers(ctx, skill.id, settings.query);
			tiers[skill.id] = toStored(rows);
			const before = stored.tiers?.[skill.id];
			// A skill seen for the first time only records where it stands.
			if (before === undefined || stored.readAt === undefined) continue;
			items.push(
				...toItems(
					tierChanges(skill, fromStored(before), rows, {
						from: iso(stored.readAt),
						to: iso(readAt),
					}),
				),
			);
		}
		const count = tierCount(tiers);
		if (count > MAX_TIERS) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Skill Tiers: ${count} member-skill tiers to remember, over the ${MAX_TIERS} this trigger keeps`,
				{ description: 'Choose fewer skills, or filter by group or members. Nothing was emitted.' },
			);
		}
		return { state: { ...stored, readAt, tiers }, items };
	},
};
