/** Every field of a tier change record (Get Tier Changes, Skill Tiers), in output order (docs/nodes.md). */
export const TIER_CHANGE_FIELDS = [
	'member',
	'skill',
	'tier_before',
	'tier_after',
	'score_before',
	'score_after',
	'direction',
	'new',
	'observation_count_before',
	'observation_count_after',
	'last_practiced_at',
	'from',
	'to',
	'summary',
] as const;
