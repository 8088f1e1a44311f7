import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import type { InputValidator } from '../validate';
import { validator } from '../validate';
import { optionalUuid } from './locator';
import { membersField, optionalMember, readMembers } from './member.locator';

/** Every list's filters: each field says how its value goes on the wire, so one reader serves all. */

type Wire = IDataObject[string];
type Encode = (value: Wire, v: InputValidator, field: string) => Wire | undefined;

/** How a form value becomes a query parameter; lists go comma-joined, empty values are left out. */
const ENCODE = {
	list: (value, v, field) => v.list(field, value).join(','),
	emailList: (value, v, field) => v.emailList(field, value).join(','),
	uuidList: (value, v, field) => v.uuidList(field, value).join(','),
	email: (value, v, field) => v.email(field, value),
	/** Inclusive ("on or after"): a date alone starts at 00:00:00 UTC. */
	dateFrom: (value, v, field) => v.dateTime(field, value),
	/** Inclusive ("on or before"): a date alone runs to 23:59:59 UTC. */
	dateUntil: (value, v, field) => v.dateTime(field, value, 'end'),
	boolean: (value) => value === true || value === 'true',
	text: (value, v, field) => v.text(field, value).trim(),
	uuidLocator: (value, v, field) => optionalUuid(v, field, value),
	memberEmail: (value, v, field) => optionalMember(v, field, value, 'email'),
	memberId: (value, v, field) => optionalMember(v, field, value, 'id'),
	option: (value) => value,
} satisfies Record<string, Encode>;

export interface QueryField {
	/** `members`: a Members field, its e-mails sent as `user_emails`, its user IDs as `user_ids`. */
	kind: keyof typeof ENCODE | 'members';
	property: INodeProperties;
}

/** A filter of a list: its field, and how its value goes out. */
export function queryField(kind: QueryField['kind'], property: INodeProperties): QueryField {
	return { kind, property };
}

/** The form's label without n8n's "Name or ID" suffix, for error messages. */
function label(property: INodeProperties): string {
	return property.displayName.replace(/ (Names or IDs|Name or ID)$/, '');
}

/** The filled-in values of `fields`, checked and encoded; a Start Date after the End Date is refused. */
export function toQuery(
	ctx: { getNode(): INode },
	itemIndex: number,
	values: IDataObject,
	fields: QueryField[],
): IDataObject {
	const v = validator(ctx, itemIndex);
	const qs: IDataObject = {};
	for (const { kind, property } of fields) {
		const value = values[property.name];
		if (value === undefined || value === null || value === '') continue;
		const field = label(property);
		if (kind === 'members') {
			const { emails, ids } = readMembers(v, field, value);
			if (ids.length > 0) qs.user_ids = ids.join(',');
			if (emails.length > 0) qs.user_emails = emails.join(',');
			continue;
		}
		const wire = ENCODE[kind](value, v, field);
		if (wire === '' || wire === undefined || (Array.isArray(wire) && wire.length === 0)) continue;
		qs[property.name] = wire;
	}
	v.ordered(
		'Start Date',
		qs.start_date as string,
		qs.end_date as string,
		'must not be after the End Date',
	);
	return qs;
}

/** A list's Filters, sorted by display name (the editor keeps the given order). */
export function filtersCollection(fields: QueryField[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: fields
			.map((field) => field.property)
			.sort((a, b) => a.displayName.localeCompare(b.displayName, 'en')),
	};
}

export function readFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: QueryField[],
): IDataObject {
	const values = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	return toQuery(ctx, itemIndex, values, fields);
}

/** People, by e-mail or user ID; the API matches anyone on either list, so both may go out. */
export const members = queryField(
	'members',
	membersField({
		displayName: 'Members',
		name: 'members',
		description: 'Only these workspace members; anyone listed matches',
	}),
);

export const groupIds = queryField('list', {
	displayName: 'Group Names or IDs',
	name: 'group_ids',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getGroups' },
	default: [],
	description:
		'Only members of these workspace groups. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
});

export const collectionIds = queryField('list', {
	displayName: 'Collection Names or IDs',
	name: 'collection_ids',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getCollections' },
	default: [],
	description:
		'Only scenarios in these collections. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
});

export const skillIds = queryField('uuidList', {
	displayName: 'Skill Names or IDs',
	name: 'skill_ids',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getSkills' },
	default: [],
	description:
		'Only what involves any of these skills (skill IDs are UUIDs). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
});

export const scenarioIds = queryField('list', {
	displayName: 'Scenario IDs',
	name: 'scenario_ids',
	type: 'string',
	default: '',
	placeholder: 'e.g. s1c2e3n4a5r6,s7c8e9n0a1r2',
	description:
		'Only these scenarios: scenario IDs separated by commas (the Scenario → Get Many operation lists them)',
});

export const programIds = queryField('list', {
	displayName: 'Program IDs',
	name: 'program_ids',
	type: 'string',
	default: '',
	placeholder: 'e.g. p1r2o3g4r5m6',
	description:
		'Only these training programs: program IDs separated by commas. The service has no list of programs to pick from: an ID is in the program field of an assignment (Assignment → Get Many).',
});

/** How a date bound reads, the same in every description. */
export const FROM_DATE_RULE =
	'ISO 8601, in UTC unless a zone is given; a date alone starts at 00:00:00 UTC';
export const UNTIL_DATE_RULE =
	'ISO 8601, in UTC unless a zone is given. A date alone, or a picked day at midnight with no zone, includes that whole day (to 23:59:59 UTC); for midnight itself add the zone, e.g. 2026-11-23T00:00:00Z';

export function startDate(what: string): QueryField {
	return queryField('dateFrom', {
		displayName: 'Start Date',
		name: 'start_date',
		type: 'dateTime',
		default: '',
		description: `Only ${what} on or after this date and time (${FROM_DATE_RULE})`,
	});
}

export function endDate(what: string): QueryField {
	return queryField('dateUntil', {
		displayName: 'End Date',
		name: 'end_date',
		type: 'dateTime',
		default: '',
		description: `Only ${what} on or before this date and time (${UNTIL_DATE_RULE})`,
	});
}

export const excludeSystemUsers = queryField('boolean', {
	displayName: 'Exclude System Users',
	name: 'exclude_system_users',
	type: 'boolean',
	default: true,
	description:
		"Whether to leave out the service operator's own accounts (e-mails on the operator's domain), such as support staff testing scenarios",
});

/** The people filters of the analytics and proficiency reports. */
export const peopleFilters: QueryField[] = [members, groupIds];
