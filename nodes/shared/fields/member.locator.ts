import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputValidator } from '../validate';
import type { LocatorOptions } from './locator';
import { locator, modesOf, unwrapLocator } from './locator';

/** What the API takes for this member: an e-mail, a user ID, or either (the user filters). */
type MemberKind = 'email' | 'id' | 'either';

// The form's checks as typed; the run-time checks say the same.
const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
/** User IDs are opaque strings (e.g. u1a2b3c4d5e6), not UUIDs. */
const USER_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]*$';
const USER_ID = new RegExp(USER_ID_PATTERN);

/** The modes after From List; a field offers those of the kinds the API takes there. */
const MODES = modesOf({
	modes: [
		{
			displayName: 'By Email',
			name: 'email',
			type: 'string',
			placeholder: 'e.g. jane@acme.com',
			validation: [
				{
					type: 'regex',
					properties: { regex: EMAIL_PATTERN, errorMessage: 'Not an e-mail address' },
				},
			],
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. u1a2b3c4d5e6',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: USER_ID_PATTERN,
						errorMessage: 'A user ID has letters, digits, - and _ only',
					},
				},
			],
		},
	],
});

/** The member picker: From List (carrying what the API takes), then By Email and/or By ID. */
export function memberLocator(
	options: Pick<LocatorOptions, 'displayName' | 'name' | 'description' | 'required'> & {
		kind: MemberKind;
	},
): INodeProperties {
	const { kind, ...field } = options;
	return locator({
		...field,
		list: {
			searchListMethod: kind === 'id' ? 'searchMemberIds' : 'searchMembers',
			placeholder: 'Select a member...',
		},
		modes: MODES.filter((mode) => kind === 'either' || mode.name === kind),
	});
}

/** n8n stores an added multi-row fixedCollection as {} and drops it at the next change. */
export const MEMBERS_EMPTY_HINT =
	'Add a member right away: n8n removes an empty Members filter when the next filter is added';

/** Several members (the user filters): rows of member locators. */
export function membersField(
	options: Pick<LocatorOptions, 'displayName' | 'name' | 'description'>,
): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Member',
		default: {},
		description: `${options.description}. ${MEMBERS_EMPTY_HINT}.`,
		options: [
			{
				displayName: 'Member',
				name: 'member',
				values: [
					memberLocator({
						displayName: 'Member',
						name: 'member',
						kind: 'either',
						description:
							'A workspace member: pick from the list, or give an e-mail (By Email) or a user ID (By ID). An expression in By Email or By ID may give several, separated by commas.',
					}),
				],
			},
		],
	};
}

function checkUserId(
	check: InputValidator,
	field: string,
	value: string,
	kind: MemberKind,
): string {
	if (USER_ID.test(value)) return value;
	const hint = value.includes('@') && kind !== 'id' ? ': that is an e-mail, choose By Email' : '';
	return check.fail(field, `must be a user ID (letters, digits, - and _), got "${value}"${hint}`);
}

/**
 * What a mode holds: From List what its search carries; a plain string (an expression, an AI tool call)
 * the kind the API takes, and where it takes either, an e-mail when it has an @.
 */
function kindOf(
	field: string,
	check: InputValidator,
	mode: string,
	value: string,
	kind: MemberKind,
	plain: boolean,
): 'email' | 'id' {
	if (plain) return kind === 'either' ? (value.includes('@') ? 'email' : 'id') : kind;
	if (mode === 'list') return kind === 'id' ? 'id' : 'email';
	if (mode !== 'email' && mode !== 'id')
		return check.fail(field, `unknown mode "${mode}"; use From List, By Email or By ID`);
	if (kind !== 'either' && kind !== mode) {
		check.fail(
			field,
			`${mode === 'email' ? 'By Email' : 'By ID'} is not available here: this field takes ${kind === 'id' ? 'a user ID' : 'an e-mail address'}`,
		);
	}
	return mode;
}

function isPlain(raw: unknown): boolean {
	return typeof raw !== 'object' || raw === null;
}

/** The value inside a locator (or the plain value) before it is read as text. */
function innerValue(raw: unknown): unknown {
	return isPlain(raw) ? raw : (raw as { value?: unknown }).value;
}

/** One member from a locator's value, checked, as the API takes it; undefined when empty. */
function readMember(
	check: InputValidator,
	field: string,
	raw: unknown,
	kind: MemberKind,
): { as: 'email' | 'id'; value: string } | undefined {
	// An expression may return an object or a list: refused as such, never read as "[object Object]".
	check.text(field, innerValue(raw));
	const { mode, value } = unwrapLocator(raw);
	if (value === '') return undefined;
	const as = kindOf(field, check, mode, value, kind, isPlain(raw));
	return {
		as,
		value: as === 'email' ? check.email(field, value) : checkUserId(check, field, value, kind),
	};
}

/** A required member's e-mail (for fields the API takes by e-mail), checked before any request. */
export function requiredMemberEmail(check: InputValidator, field: string, raw: unknown): string {
	return (
		readMember(check, field, raw, 'email')?.value ??
		check.fail(field, 'is required: pick a member or give an e-mail address')
	);
}

/** An optional member's e-mail or user ID, as the field takes it; undefined when left empty. */
export function optionalMember(
	check: InputValidator,
	field: string,
	raw: unknown,
	kind: 'email' | 'id',
): string | undefined {
	return readMember(check, field, raw, kind)?.value;
}

/** A Members field's e-mails and user IDs; a row may hold several, comma-separated (an expression). */
export function readMembers(
	check: InputValidator,
	field: string,
	raw: unknown,
): { emails: string[]; ids: string[] } {
	const found = { email: new Set<string>(), id: new Set<string>() };
	if (raw === undefined || raw === null || raw === '') return { emails: [], ids: [] };
	if (typeof raw !== 'object' || Array.isArray(raw)) {
		return check.fail(field, 'must be a list of members (rows of From List, By Email or By ID)');
	}
	const rows = (raw as IDataObject).member;
	const list = rows === undefined ? [] : Array.isArray(rows) ? rows : [rows];
	list.forEach((row, n) => {
		const locator = (row as IDataObject | null)?.member;
		const { mode } = unwrapLocator(locator);
		const rowField = `${field} (row ${n + 1})`;
		for (const value of check.list(rowField, innerValue(locator))) {
			const member = readMember(
				check,
				rowField,
				isPlain(locator) ? value : { mode, value },
				'either',
			);
			if (member) found[member.as].add(member.value);
		}
	});
	return { emails: [...found.email], ids: [...found.id] };
}
