import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { readSkills, tierChangesBetween } from '../../shared/skills/readTiers';
import { iso } from './read';
import type { SkillTiersSettings } from './settings';

const WEEK = 7 * 86_400_000;

/**
 * A manual run ("Fetch Test Event"): the tier changes of the last 7 days among members who practised
 * (as Skill → Get Tier Changes reads them), to map fields; the state is left alone.
 */
export async function sampleTierChanges(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
): Promise<INodeExecutionData[]> {
	const all = await readSkills(ctx);
	const skills = settings.skillIds.length
		? settings.skillIds.map((id) => all.find((s) => s.id === id) ?? { id, name: id })
		: all;
	const now = Math.floor(Date.now() / 1000) * 1000;
	const changes = await tierChangesBetween(
		ctx,
		skills,
		settings.query,
		{ from: iso(now - WEEK), to: iso(now) },
		{ everyMember: false, limit: 1 },
	);
	return changes.map((change) => ({ json: { event: 'tierChanged', ...change } }));
}
