import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { validator } from '../validate';
import { optionalUuid } from './locator';
import { membersField, optionalMember, readMembers } from './member.locator';

/**
 * Query filters shared by every list (scenarios, sessions, assignments, skills, members, Knowledge Hub
 * folders, pages and sources): each field carries how its value goes on the wire, so one reader
 * validates and encodes every Filters collection.
 */

/** How a form value becomes a query parameter. */
export type WireKind =
	/** Multi-select or comma-separated text, sent comma-joined. */
	| 'list'
	| 'emailList'
	| 'uuidList'
	| 'email'
	/** An inclusive lower bound ("on or after"): a date alone starts at 00:00:00 UTC. */
	| 'dateFrom'
	/** An inclusive upper bound ("on or before"): a date alone runs to 23:59:59 UTC of that day. */
	| 'dateUntil'
	| 'boolean'
	| 'text'
	/** One UUID from a resource locator (or a bare ID); an empty locator is left out. */
	| 'uuidLocator'
	/** One member from a member locator, sent as the e-mail or as the user ID the parameter takes. */
	| 'memberEmail'
	| 'memberId'
	/** A Members field: its e-mails go out as `user_emails`, its user IDs as `user_ids`. */
	| 'members'
	/** The value of an options field, sent as chosen. */
	| 'option';

export interface QueryField {
	kind: WireKind;
	property: INodeProperties;
}

/** The form's label without n8n's "Name or ID" suffix, for error messages. */
function label(property: INodeProperties): string {
	return property.displayName.replace(/ (Names or IDs|Name or ID)$/, '');
}

/**
 * Validates and encodes the filled-in values of `fields`; empty values are left out. A Start Date after
 * the End Date is refused too: the API would just answer nothing.
 */
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
		let wire: IDataObject[string];
		switch (kind) {
			case 'list':
				wire = v.list(field, value).join(',');
				break;
			case 'emailList':
				wire = v.emailList(field, value).join(',');
				break;
			case 'uuidList':
				wire = v.uuidList(field, value).join(',');
				break;
			case 'email':
				wire = v.email(field, value);
				break;
			case 'dateFrom':
				wire = v.dateTime(field, value);
				break;
			case 'dateUntil':
				wire = v.dateTime(field, value, 'end');
				break;
			case 'boolean':
				wire = value === true || value === 'true';
				break;
			case 'text':
				wire = v.text(field, value).trim();
				break;
			case 'uuidLocator':
				wire = optionalUuid(v, field, value);
				break;
			case 'memberEmail':
				wire = optionalMember(v, field, value, 'email');
				break;
			case 'memberId':
				wire = optionalMember(v, field, value, 'id');
				break;
			case 'members': {
				const { emails, ids } = readMembers(v, field, value);
				if (ids.length > 0) qs.user_ids = ids.join(',');
				if (emails.length > 0) qs.user_emails = emails.join(',');
				continue;
			}
			case 'option':
				wire = value;
				break;
		}
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

/**
 * The Filters collection of a list, built from its QueryFields. The editor lists a collection's options
 * in the order given, so they are sorted here by display name, whatever order the list composes them in.
 */
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

/** The item's Filters collection, checked and encoded as query parameters. */
export function readFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: QueryField[],
): IDataObject {
	const values = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	return toQuery(ctx, itemIndex, values, fields);
}

/**
 * People, by e-mail or user ID: each row is a member picker. The API takes `user_emails` and `user_ids`
 * and matches anyone on either list, so both go out when both kinds are given.
 */
export const members: QueryField = {
	kind: 'members',
	property: membersField({
		displayName: 'Members',
		name: 'members',
		description: 'Only these workspace members; anyone listed matches',
	}),
};

export const groupIds: QueryField = {
	kind: 'list',
	property: {
		displayName: 'Group Names or IDs',
		name: 'group_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getGroups' },
		default: [],
		description:
			'Only members of these workspace groups. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
};

export const collectionIds: QueryField = {
	kind: 'list',
	property: {
		displayName: 'Collection Names or IDs',
		name: 'collection_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getCollections' },
		default: [],
		description:
			'Only scenarios in these collections. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
};

export const skillIds: QueryField = {
	kind: 'uuidList',
	property: {
		displayName: 'Skill Names or IDs',
		name: 'skill_ids',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getSkills' },
		default: [],
		description:
			'Only what involves any of these skills (skill IDs are UUIDs). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
};

export const scenarioIds: QueryField = {
	kind: 'list',
	property: {
		displayName: 'Scenario IDs',
		name: 'scenario_ids',
		type: 'string',
		default: '',
		placeholder: 'e.g. s1c2e3n4a5r6,s7c8e9n0a1r2',
		description:
			'Only these scenarios: scenario IDs separated by commas (the Scenario → Get Many operation lists them)',
	},
};

export const programIds: QueryField = {
	kind: 'list',
	property: {
		displayName: 'Program IDs',
		name: 'program_ids',
		type: 'string',
		default: '',
		placeholder: 'e.g. p1r2o3g4r5m6',
		description:
			'Only these training programs: program IDs separated by commas. The service has no list of programs to pick from: an ID is in the program field of an assignment (Assignment → Get Many).',
	},
};

/** How a date bound reads, in every field's description: the same rule everywhere. */
export const FROM_DATE_RULE =
	'ISO 8601, in UTC unless a zone is given; a date alone starts at 00:00:00 UTC';
export const UNTIL_DATE_RULE =
	'ISO 8601, in UTC unless a zone is given. A date alone, or a picked day at midnight with no zone, includes that whole day (to 23:59:59 UTC); for midnight itself add the zone, e.g. 2026-11-23T00:00:00Z';

export function startDate(what: string): QueryField {
	return {
		kind: 'dateFrom',
		property: {
			displayName: 'Start Date',
			name: 'start_date',
			type: 'dateTime',
			default: '',
			description: `Only ${what} on or after this date and time (${FROM_DATE_RULE})`,
		},
	};
}

export function endDate(what: string): QueryField {
	return {
		kind: 'dateUntil',
		property: {
			displayName: 'End Date',
			name: 'end_date',
			type: 'dateTime',
			default: '',
			description: `Only ${what} on or before this date and time (${UNTIL_DATE_RULE})`,
		},
	};
}

export const excludeSystemUsers: QueryField = {
	kind: 'boolean',
	property: {
		displayName: 'Exclude System Users',
		name: 'exclude_system_users',
		type: 'boolean',
		default: true,
		description:
			"Whether to leave out the service operator's own accounts (e-mails on the operator's domain), such as support staff testing scenarios",
	},
};

/** The people filters of the analytics and proficiency reports. */
export const peopleFilters: QueryField[] = [members, groupIds];
