import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { UuidPickerOptions } from '../../shared/fields/locator';
import { memberLocator, requiredMemberEmail } from '../../shared/fields/member.locator';
import { validator } from '../../shared/validate';
import { queryField, type QueryField } from '../../shared/fields/filter.fields';

/** A collection; `more` (displayOptions, description) goes before its options. */
export function collectionOf(displayName: string, name: string, placeholder: string) {
	return (
		...args:
			| [options: INodeProperties[]]
			| [more: Partial<INodeProperties>, options: INodeProperties[]]
	): INodeProperties => {
		const [more, options] = args.length === 1 ? [{}, args[0]] : args;
		return { displayName, name, type: 'collection', placeholder, default: {}, ...more, options };
	};
}

export const optionsField = collectionOf('Options', 'options', 'Add Option');
export const additionalFields = collectionOf('Additional Fields', 'additionalFields', 'Add Field');

/** The required Member, by e-mail; `who` ends in its separator ("the session is for;"). */
export const memberEmailField = (who: string): INodeProperties =>
	memberLocator({
		displayName: 'Member',
		name: 'userEmail',
		kind: 'email',
		required: true,
		description: `The workspace member ${who} by e-mail: pick them from the list or type the address (By Email)`,
	});

export const readMemberEmail = (ctx: IExecuteFunctions, itemIndex: number): string =>
	requiredMemberEmail(
		validator(ctx, itemIndex),
		'Member',
		ctx.getNodeParameter('userEmail', itemIndex, ''),
	);

/** A picker as a list filter, never required. */
export const uuidFilter = (
	picker: (overrides?: Partial<UuidPickerOptions>) => INodeProperties,
	overrides: Partial<UuidPickerOptions>,
): QueryField => queryField('uuidLocator', picker({ required: false, ...overrides }));

/** A member picker as a list filter, by e-mail or user ID as its kind says. */
export const memberFilter = (options: Parameters<typeof memberLocator>[0]): QueryField =>
	queryField(options.kind === 'id' ? 'memberId' : 'memberEmail', memberLocator(options));

/** The Search filter of a list: `what` contains this text. */
export const searchFilter = (placeholder: string, what: string): QueryField =>
	queryField('text', {
		displayName: 'Search',
		name: 'query',
		type: 'string',
		default: '',
		placeholder,
		description: `Only ${what} contains this text (not case-sensitive)`,
	});

/** A notice (text only); `show` its displayOptions. */
export const notice = (
	name: string,
	text: string,
	show?: IDisplayOptions['show'],
): INodeProperties => ({
	displayName: text,
	name,
	type: 'notice',
	default: '',
	...(show ? { displayOptions: { show } } : {}),
});
