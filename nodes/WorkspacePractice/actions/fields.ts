import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { memberLocator, requiredMemberEmail } from '../../shared/fields/member.locator';
import { validator } from '../../shared/validate';

/** A collection of optional fields, its options last: `more` (displayOptions, description) goes before. */
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

/** The required Member an operation acts for, by e-mail; `who` ends in its separator ("the session is for;"). */
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
