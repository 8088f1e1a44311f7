import type { INodeProperties } from 'n8n-workflow';

import { filtersCollection } from '../../shared/fields/filter.fields';
import { shownFor } from '../family';
import { maxReadsOption } from '../quota';
import {
	DEFAULT_MAX_READS,
	DEFAULT_SWEEP_DAYS,
	MAX_SWEEP_DAYS,
	SKILL_TIER_EVENTS,
	skillTierFilterFields,
} from './settings';

/** Skill Tiers in Trigger On. */
export const skillTiersOption = {
	name: 'Skill Tiers',
	value: 'skillTiers',
	description: 'Members whose proficiency tier in a skill moved (up, down or a first tier)',
};

const showFor = shownFor(skillTiersOption.value);

const filters = filtersCollection(skillTierFilterFields);

/** The Skill Tiers form: its event, skills, filters, the sweep, and what a read costs. */
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
			'One read a day (Options → Max Reads a Day). Set Poll Times to Custom "0 * 23 * * *": it reads at 23:00, after the working day, and carries a long read on minute by minute, done within the hour.',
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
			{
				displayName: 'Include System Users',
				name: 'includeSystemUsers',
				type: 'boolean',
				default: false,
				description:
					"Whether to watch the service operator's own accounts (e-mails on the operator's domain) too; left out by default",
			},
			maxReadsOption(
				DEFAULT_MAX_READS,
				"The most reads a day the polls may make, refilled evenly over 24 hours (a day's worth is kept); polls beyond it send no request, except to carry on a read under way. Poll Times says when (the notice above). A read costs what changed since the last one: 1 request per 100 sessions, per skill practised 1 per 100 members who practised it, plus the sweep. 0 reads at every poll.",
			),
			{
				displayName: 'Sweep Every (Days)',
				name: 'sweepDays',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_SWEEP_DAYS, numberPrecision: 0 },
				default: DEFAULT_SWEEP_DAYS,
				description:
					"Changes from logged calls alone show in no list: every member of every skill is read at least this often, a few skills a read, after the members who practised. Cost: skills × ⌈members with a tier ÷ 100⌉ ÷ this value, requests a day (80 skills of 2,000 members: 229 a day at 7, 54 at 30; set 30 there). A read's sweep spends at most 100 requests, a tenth of the workspace's day (at least one skill); the members who practised are never capped. A sweep that does not fit the 100 or the hour of the read waits for the next one, and n8n's log says it lags and what cycle it achieves (at 2,000 × 80 and 7: 100 a night, every skill in about 16 days).",
			},
		],
	},
];
