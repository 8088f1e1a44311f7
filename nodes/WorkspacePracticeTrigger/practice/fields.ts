import type { INodeProperties } from 'n8n-workflow';

import type { QueryField } from '../../shared/fields/filter.fields';
import { MEMBERS_EMPTY_HINT } from '../../shared/fields/member.locator';
import {
	excludeSystemUsers,
	groupIds,
	members,
	programIds,
} from '../../shared/fields/filter.fields';

/** The ranks the service gives a scored session. */
export const RANKS = ['gold', 'silver', 'bronze', 'unranked'] as const;

/** A shared filter with this form's wording (which events it applies to). */
const worded = (field: QueryField, description: string): QueryField => ({
	kind: field.kind,
	property: { ...field.property, description },
});

const scenarios: QueryField = {
	kind: 'list',
	property: {
		displayName: 'Scenario Names or IDs',
		name: 'scenario_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getScenarios' },
		default: [],
		description:
			'Only sessions and assignments of these scenarios (every event). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
};

const people = worded(
	members,
	`Only sessions and assignments of these people (every event); anyone listed matches, including people who have left the workspace when given by ID or e-mail. ${MEMBERS_EMPTY_HINT}.`,
);
const groups = worded(
	groupIds,
	'Session Scored only: sessions of members of these workspace groups. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
);
const noSystem = worded(
	excludeSystemUsers,
	"Session Scored only: whether to leave out sessions of the service operator's own accounts (e-mails on the operator's domain)",
);
const programs = worded(
	programIds,
	'Assignment events only: assignments in these training programs, program IDs separated by commas. The service has no list of programs to pick from: an ID is in the program field of an assignment (Assignment → Get Many).',
);

/** Filters the service applies to the session list of Session Scored. */
export const SESSION_FILTERS: QueryField[] = [scenarios, people, groups, noSystem];
/** Filters the service applies to the assignment list. */
export const ASSIGNMENT_FILTERS: QueryField[] = [scenarios, people, programs];

const rank: INodeProperties = {
	displayName: 'Rank',
	name: 'rank',
	type: 'multiOptions',
	default: [],
	description: 'Session Scored only: sessions that reached one of these ranks',
	options: [
		{ name: 'Bronze', value: 'bronze' },
		{ name: 'Gold', value: 'gold' },
		{ name: 'Silver', value: 'silver' },
		{ name: 'Unranked', value: 'unranked' },
	],
};

// The defaults keep a range when both are added (0 to below 50): two equal defaults matched nothing.
const score = (
	displayName: string,
	name: string,
	defaultScore: number,
	description: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 101, numberPrecision: 0 },
	default: defaultScore,
	description,
});

/** The Filters collection, its options in alphabetical order. */
export const practiceFilterOptions: INodeProperties[] = [
	noSystem.property,
	groups.property,
	people.property,
	programs.property,
	rank,
	scenarios.property,
	score(
		'Score At or Above',
		'scoreAtLeast',
		0,
		'Session Scored only: sessions scoring this or more (0 to 100), e.g. 80 for a shout-out. With Score Below it must be lower (the run stops with an error otherwise: no score could match both).',
	),
	score(
		'Score Below',
		'scoreBelow',
		50,
		'Session Scored only: sessions scoring less than this (0 to 100), e.g. 60 for a coach alert. With Score At or Above it must be higher.',
	),
];
