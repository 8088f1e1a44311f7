import type { IExecuteFunctions, INodeProperties, INodePropertyMode } from 'n8n-workflow';

import type { InputValidator } from '../validate';
import { validator } from '../validate';

/** Resource locators: the one builder every picker uses, and the readers of a locator's value. */

const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** n8n's lint (node-param-default-missing) tells a mode from a parameter only by a `modes` key. */
export function modesOf(holder: { modes: INodePropertyMode[] }): INodePropertyMode[] {
	return holder.modes;
}

export interface LocatorOptions {
	displayName: string;
	name: string;
	description: string;
	required?: boolean;
	hint?: string;
	/** From List and its `listSearch` method, where the API can list. */
	list?: { searchListMethod: string; placeholder?: string };
	/** The modes after From List. */
	modes: INodePropertyMode[];
}

/** A resource locator, opening on its first mode. */
export function locator(options: LocatorOptions): INodeProperties {
	const { list } = options;
	const listMode = list
		? modesOf({
				modes: [
					{
						displayName: 'From List',
						name: 'list',
						type: 'list',
						...(list.placeholder === undefined ? {} : { placeholder: list.placeholder }),
						typeOptions: { searchListMethod: list.searchListMethod, searchable: true },
					},
				],
			})
		: [];
	const modes = [...listMode, ...options.modes];
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: modes[0].name, value: '' },
		// Left out rather than defaulted, so the description stays as it was.
		...(options.required === undefined ? {} : { required: options.required }),
		description: options.description,
		...(options.hint === undefined ? {} : { hint: options.hint }),
		modes,
	};
}

/** A By ID mode that the form checks to be a UUID as it is typed. */
export function uuidMode(
	errorMessage: string,
	placeholder = 'e.g. 3f2b8c1e-5a4d-4e7b-9c1a-2d3e4f5a6b7c',
): INodePropertyMode {
	const [byId] = modesOf({
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder,
				validation: [{ type: 'regex', properties: { regex: UUID_PATTERN, errorMessage } }],
			},
		],
	});
	return byId;
}

export interface UuidPickerOptions {
	displayName: string;
	name: string;
	/** Noun for placeholders, e.g. "page". */
	noun: string;
	searchListMethod: string;
	description: string;
	required?: boolean;
}

/** A picker of UUIDs without a web address (From List, By ID); callers override what differs. */
export function uuidPicker(
	defaults: UuidPickerOptions,
): (overrides?: Partial<UuidPickerOptions>) => INodeProperties {
	return (overrides = {}) => {
		const { noun, searchListMethod, required, ...field } = { ...defaults, ...overrides };
		return locator({
			...field,
			required: required ?? false,
			list: { searchListMethod, placeholder: `Select a ${noun}...` },
			modes: [uuidMode(`The ${noun} ID must be a UUID`)],
		});
	};
}

interface LocatorValue {
	mode: string;
	/** Trimmed; '' when missing. */
	value: string;
}

/** `{mode, value}` as n8n stores it; a plain string (an expression, an AI agent) counts as By ID. */
export function unwrapLocator(raw: unknown): LocatorValue {
	const boxed = typeof raw === 'object' && raw !== null && 'value' in raw;
	const { mode, value } = boxed ? (raw as { mode?: unknown; value: unknown }) : { value: raw };
	return {
		mode: String(mode ?? 'id'),
		value: value === undefined || value === null ? '' : String(value).trim(),
	};
}

export function locatorValue(raw: unknown): string {
	return unwrapLocator(raw).value;
}

/** A required locator parameter's mode and non-empty value, checked before any request. */
export function readLocator(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): LocatorValue {
	const { mode, value } = unwrapLocator(
		ctx.getNodeParameter(name, itemIndex, '', { extractValue: false }),
	);
	return { mode, value: validator(ctx, itemIndex).required(label, value) };
}

export function readUuidLocator(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string {
	return validator(ctx, itemIndex).uuid(label, readLocator(ctx, itemIndex, name, label).value);
}

/** An optional locator (e.g. in Filters): undefined when left empty, else checked to be a UUID. */
export function optionalUuid(
	check: InputValidator,
	label: string,
	raw: unknown,
): string | undefined {
	const value = locatorValue(raw);
	return value ? check.uuid(label, value) : undefined;
}
