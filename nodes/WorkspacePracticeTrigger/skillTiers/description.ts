import type { INodeProperties } from 'n8n-workflow';

import { filtersCollection } from '../../shared/fields/filter.fields';
import { shownFor } from '../family';
import { minReadMinutesOption } from '../readInterval';
import { DEFAULT_READ_HOUR, SKILL_TIER_EVENTS, skillTierFilterFields } from './settings';

/** Skill Tiers in Trigger On. */
export const skillTiersOption = {
	name: 'Skill Tiers',
	value: 'skillTiers',
	description: 'Members whose proficiency tier in a skill moved (up, down or a first tier)',
};

const showFor = shownFor(skillTiersOption.value);

const filters = filtersCollection(skillTierFilterFields);

/** The Skill Tiers form: its event, skills, filters, the hour it reads, and what that costs. */
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
		displayName: 'Read At (Hour)',
		name: 'skillTierReadHour',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 23, numberPrecision: 0 },
		displayOptions: showFor,
		default: DEFAULT_READ_HOUR,
		description:
			"The hour of the day (0-23, in the workflow's time zone) from which the day's one read happens, at the next poll. The first poll after activation only records where tiers stand.",
	},
	{
		displayName:
			'Cost: one read a day of 1 request per skill per 100 members, plus 1 for the list of skills when none is chosen: 20 skills and 80 members cost 21 requests a day of the 1,000 a workspace has.',
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
			minReadMinutesOption(
				'Read this often instead of once a day at Read At (Hour), e.g. 60 for hourly. Each read costs the same as the daily one: 1 request per skill per 100 members (plus 1 for the list of skills).',
			),
		],
	},
];
