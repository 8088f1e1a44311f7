import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	filtersCollection,
	peopleFilters,
	readFilters,
	UNTIL_DATE_RULE,
} from '../../../shared/fields/filter.fields';
import { readUuidLocator } from '../../../shared/fields/locator';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import type { SkillRef } from '../../../shared/skills/tierChange';
import { readSkills, readTiers, tierChangesBetween } from '../../../shared/skills/readTiers';
import { validator } from '../../../shared/validate';
import { skillLocator } from './skill.locator';
import { notice, optionsField } from '../fields';

const WEEK_MS = 7 * 86_400_000;

export const description = forOperation('skill', 'getTierChanges', [
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
	{
		...skillLocator({
			description: 'The skill to compare: pick it from the list or give its UUID',
		}),
		required: true,
		displayOptions: { show: { skillScope: ['one'] } },
	},
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
	notice(
		'tierChangesCost',
		'Cost: 1 request per 100 sessions between the dates, 1 per 100 scenarios, then per skill practised 2 per 100 members who practised it (as of Compare From and To), plus 1 per 100 skills. With Read Every Member: per skill 1 per 100 members with a tier and 1 per 100 who practised, no sessions.',
	),
	filtersCollection(peopleFilters),
	optionsField([
		{
			displayName: 'Include System Users',
			name: 'includeSystemUsers',
			type: 'boolean',
			default: false,
			description:
				"Whether to list the service operator's own accounts (e-mails on the operator's domain) too; left out by default",
		},
		{
			displayName: 'Read Every Member',
			name: 'everyMember',
			type: 'boolean',
			default: false,
			description:
				"Whether to read every member with a tier, so changes from logged calls alone are listed too. Off: only members with a scored roleplay session on one of the skill's scenarios between the dates are compared (calls appear in no list), at a fraction of the cost.",
		},
	]),
]);

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
	if (Date.parse(from) >= Date.parse(to))
		check.fail('Compare From', `must be before Compare To (${to}), got ${from}`);
	return { from, to };
}

/** No skill detail in the API: the name is from the list; one not listed is read for its 404. */
async function oneSkill(
	ctx: IExecuteFunctions,
	skillId: string,
	qs: IDataObject,
	asOf: string,
	itemIndex: number,
): Promise<SkillRef> {
	const skills = await readSkills(ctx, itemIndex);
	const found = skills.find((skill) => skill.id === skillId);
	if (found) return found;
	await readTiers(ctx, skillId, qs, asOf, itemIndex);
	return { id: skillId, name: skillId };
}

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const dates = readDates(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const qs = readFilters(this, itemIndex, peopleFilters);
	if (options.includeSystemUsers !== true) qs.exclude_system_users = true;
	const scope = String(this.getNodeParameter('skillScope', itemIndex, 'all'));
	const skillId = scope === 'one' ? readUuidLocator(this, itemIndex, 'skill', 'Skill ID') : '';
	const skills: SkillRef[] =
		scope === 'one'
			? [await oneSkill(this, skillId, qs, dates.to, itemIndex)]
			: await readSkills(this, itemIndex);
	return await tierChangesBetween(this, skills, qs, dates, {
		everyMember: options.everyMember === true,
		itemIndex,
	});
};
