import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { QueryField } from '../../../shared/fields/filter.fields';
import {
	excludeSystemUsers,
	filtersCollection,
	peopleFilters,
	readFilters,
	UNTIL_DATE_RULE,
} from '../../../shared/fields/filter.fields';
import { readUuidLocator } from '../../../shared/fields/locator';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import type { SkillRef } from '../../../shared/skills/tierChange';
import { readSkills, skillTierChanges } from '../../../shared/skills/readTiers';
import { validator } from '../../../shared/validate';
import { skillLocator } from './skill.locator';

const WEEK_MS = 7 * 86_400_000;

const filterFields: QueryField[] = [...peopleFilters, excludeSystemUsers];

const fields: INodeProperties[] = [
	{
		displayName: 'Skills',
		name: 'skillScope',
		type: 'options',
		options: [
			{ name: 'All Skills', value: 'all', description: 'Every skill in the workspace' },
			{ name: 'One Skill', value: 'one', description: 'The skill picked below' },
		],
		default: 'all',
		description: 'Whether to compare every skill or one',
	},
	skillLocator({
		description: 'The skill to compare: pick it from the list or give its UUID',
	}),
	{
		displayName: 'Compare From',
		name: 'fromDate',
		type: 'dateTime',
		default: '',
		description: `The earlier date: tiers as they stood then. Empty: 7 days before Compare To (${UNTIL_DATE_RULE}).`,
	},
	{
		displayName: 'Compare To',
		name: 'toDate',
		type: 'dateTime',
		default: '',
		description: `The later date: tiers as they stand then. Empty: now (${UNTIL_DATE_RULE}).`,
	},
	{
		displayName:
			"Cost: two reads per skill per 100 members (proficiency then and now), plus one read per 100 skills for their names, of the workspace's 1,000 a day. 20 skills and 80 members: 41 reads.",
		name: 'tierChangesCost',
		type: 'notice',
		default: '',
	},
	filtersCollection(filterFields),
];

/** The skill locator shows only for One Skill. */
const scoped = fields.map((field) =>
	field.name === 'skill'
		? { ...field, required: true, displayOptions: { show: { skillScope: ['one'] } } }
		: field,
);

export const description = forOperation('skill', 'getTierChanges', scoped);

/** Whole seconds: the service's timestamps have second precision. */
const isoSeconds = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString();

/** Compare From and To as ISO timestamps (defaults: now and 7 days before), From before To. */
function readDates(ctx: IExecuteFunctions, itemIndex: number): { from: string; to: string } {
	const check = validator(ctx, itemIndex);
	const rawTo = ctx.getNodeParameter('toDate', itemIndex, '');
	const rawFrom = ctx.getNodeParameter('fromDate', itemIndex, '');
	const to = rawTo === '' ? isoSeconds(Date.now()) : check.dateTime('Compare To', rawTo, 'end');
	const from =
		rawFrom === ''
			? isoSeconds(Date.parse(to) - WEEK_MS)
			: check.dateTime('Compare From', rawFrom, 'end');
	if (Date.parse(from) >= Date.parse(to)) {
		check.fail('Compare From', `must be before Compare To (${to}), got ${from}`);
	}
	return { from, to };
}

/**
 * The API has no skill detail: the name comes from the skills list (one read per 100 skills). A skill
 * not listed keeps its ID as name; its proficiency read then answers 404 naming it.
 */
async function skillName(
	ctx: IExecuteFunctions,
	skillId: string,
	itemIndex: number,
): Promise<string> {
	const skills = await readSkills(ctx, itemIndex);
	return skills.find((skill) => skill.id === skillId)?.name ?? skillId;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	// Everything the form says is checked before the first request.
	const dates = readDates(this, itemIndex);
	const qs: IDataObject = readFilters(this, itemIndex, filterFields);
	const scope = validator(this, itemIndex).oneOf(
		'Skills',
		String(this.getNodeParameter('skillScope', itemIndex, 'all')),
		['all', 'one'],
	);
	const skillId = scope === 'one' ? readUuidLocator(this, itemIndex, 'skill', 'Skill ID') : '';
	const skills: SkillRef[] =
		scope === 'one'
			? [{ id: skillId, name: await skillName(this, skillId, itemIndex) }]
			: await readSkills(this, itemIndex);
	const changes: IDataObject[] = [];
	for (const skill of skills) {
		changes.push(...(await skillTierChanges(this, skill, qs, dates, itemIndex)));
	}
	return changes;
}
