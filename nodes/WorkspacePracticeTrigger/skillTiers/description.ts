import type { INodeProperties } from 'n8n-workflow';

import { filtersCollection } from '../../shared/fields/filter.fields';
import { shownFor } from '../family';
import { maxReadsOption } from '../quota';
import { DEFAULT_MAX_READS, SKILL_TIER_EVENTS, skillTierFilterFields } from './settings';

/** Skill Tiers in Trigger On. */
export const skillTiersOption = {
	name: 'Skill Tiers',
	value: 'skillTiers',
	description: 'Members whose proficiency tier in a skill moved (up, down or a first tier)',
};

const showFor = shownFor(skillTiersOption.value);

const filters = filtersCollection(skillTierFilterFields);

/** The Skill Tiers form: its event, skills, filters, and what a read costs. */
export const skillTiersProperties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'skillTierEvents',
		type: 'multiOptions',
		required: true,
		displayOptions: showFor,
		default: ['tierChanged'],
		description:
			'Each member and skill whose tier moved since the last read becomes one item, once: tier and score before and after, and the direction (up, down, new)',
		options: [
			{
				name: SKILL_TIER_EVENTS.tierChanged,
				value: 'tierChanged',
				description:
					'A tier moved: excellent (90+), proficient (75+), developing (50+), needs work; "new" when a member gets a first tier (3 observations)',
			},
		],
	},
	{
		displayName: 'Skill Names or IDs',
		name: 'skillTierSkills',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getSkills' },
		displayOptions: showFor,
		default: [],
		description:
			'The skills to watch; none chosen watches every skill. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName:
			"Reads when Poll Times fires, at most once a day (Options → Max Reads a Day): set Poll Times to Every Day at 6, say, for a read at 6 in the workflow's time zone. The first read after activation only records where tiers stand. A read costs 1 request per skill per 100 members, plus 1 for the list of skills when none is chosen: 20 skills and 80 members cost 21 requests a day of the 1,000 a workspace has.",
		name: 'skillTierCostNotice',
		type: 'notice',
		displayOptions: showFor,
		default: '',
	},
	{ ...filters, name: 'skillTierFilters', displayOptions: showFor },
	{
		displayName: 'Options',
		name: 'skillTierOptions',
		type: 'collection',
		placeholder: 'Add Option',
		displayOptions: showFor,
		default: {},
		options: [
			maxReadsOption(
				DEFAULT_MAX_READS,
				"The most reads a day the polls may make, refilled evenly over 24 hours (a day's worth is kept); polls beyond it make no request. Each read costs 1 request per skill per 100 members (plus 1 for the list of skills): at 24 with Poll Times Every Hour, 20 skills and 80 members cost 504 requests a day. 0 reads at every poll.",
			),
		],
	},
];
