import type { INodeProperties } from 'n8n-workflow';

import type { TriggerFamily } from './family';
import { knowledgeHub } from './knowledgeHub';
import { practice } from './practice';
import { skillTiers } from './skillTiers';

/**
 * The trigger's families, in Trigger On's order; the first is its default (and what a workflow saved
 * without Trigger On runs). A new family is its folder (an index.ts exporting a TriggerFamily) and one
 * line here.
 */
export const FAMILIES: readonly TriggerFamily[] = [knowledgeHub, practice, skillTiers];

/** The family Trigger On names; an unknown value runs the default, as a missing one does. */
export const familyOf = (triggerOn: unknown): TriggerFamily =>
	FAMILIES.find((family) => family.option.value === triggerOn) ?? FAMILIES[0];

/** Trigger On, then each family's fields (shown only while Trigger On names it). */
export const properties: INodeProperties[] = [
	{
		displayName: 'Trigger On',
		name: 'triggerOn',
		type: 'options',
		noDataExpression: true,
		// The first family's value, written out for n8n's linter.
		default: 'knowledgeHub',
		description:
			'What the trigger watches. One trigger watches one of them: each spends part of the 1,000 requests a day the workspace allows.',
		options: FAMILIES.map((family) => family.option),
	},
	...FAMILIES.flatMap((family) => family.properties),
];
