import type { TriggerFamily } from '../family';
import { pollFamily } from '../family';
import { skillTiersOption, skillTiersProperties } from './description';
import { skillTiersPoll } from './poll';
import { SKILL_TIER_EVENTS } from './settings';

/** Skill Tiers: members whose tier in a skill moved, read from who practised and a bounded sweep. */
export const skillTiers: TriggerFamily = {
	option: skillTiersOption,
	eventsParameter: 'skillTierEvents',
	events: SKILL_TIER_EVENTS,
	properties: skillTiersProperties,
	async poll() {
		return await pollFamily(this, skillTiersPoll);
	},
};
