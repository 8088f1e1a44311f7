import type { IExecuteFunctions, INodeProperties, INodePropertyMode } from 'n8n-workflow';

import type { InputValidator } from '../validate';
import { validator } from '../validate';

/**
 * Resource locators: `locator`, the one builder every picker uses (the member picker, the job's, the
 * scenario's and the `<resource>.locator.ts` ones through `uuidPicker`), and the readers that turn a
 * locator's form value into a checked ID.
 */

const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

// ---- Field builders ----

/**
 * Mode objects written under a `modes` key: n8n's lint rule (node-param-default-missing) tells a
 * locator's mode from a parameter, which needs a default, only by that key.
 */
export function modesOf(holder: { modes: INodePropertyMode[] }): INodePropertyMode[] {
	return holder.modes;
}

export interface LocatorOptions {
	displayName: string;
	name: string;
	description: string;
	required?: boolean;
	hint?: string;
	/** The From List mode and the `listSearch` method that fills it; left out where the API cannot list. */
	list?: { searchListMethod: string; placeholder?: string };
	/** The modes after From List (By ID, By Email, By URL). */
	modes: INodePropertyMode[];
}

/**
 * The one resource locator builder every picker uses. It opens on From List where there is one,
 * else on the first of `modes`.
 */
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
		// Left out rather than defaulted: a field without `required` keeps its description unchanged.
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

/**
 * A resource's picker for objects whose IDs are UUIDs and which have no web address (From List and
 * By ID), with its defaults; callers override what differs where it is used (another name, not
 * required inside Filters, a description of its role there).
 */
export function uuidPicker(
	defaults: UuidPickerOptions,
): (overrides?: Partial<UuidPickerOptions>) => INodeProperties {
	return (overrides = {}) => {
		const options = { ...defaults, ...overrides };
		return locator({
			displayName: options.displayName,
			name: options.name,
			required: options.required ?? false,
			description: options.description,
			list: {
				searchListMethod: options.searchListMethod,
				placeholder: `Select a ${options.noun}...`,
			},
			modes: [uuidMode(`The ${options.noun} ID must be a UUID`)],
		});
	};
}

// ---- Readers ----

export interface LocatorValue {
	/** `list`, `id` or `url`; plain strings (an AI tool call, an old expression) count as `id`. */
	mode: string;
	/** The value, trimmed; '' when missing. */
	value: string;
}

/**
 * Mode and value of a locator's form value: the `{mode, value}` object n8n stores, or a plain string
 * (an expression or an AI agent may fill the field with the bare ID).
 */
export function unwrapLocator(raw: unknown): LocatorValue {
	const located =
		typeof raw === 'object' && raw !== null && 'value' in raw
			? {
					mode: String((raw as { mode?: unknown }).mode ?? 'id'),
					value: (raw as { value: unknown }).value,
				}
			: { mode: 'id', value: raw };
	return {
		mode: located.mode,
		value:
			located.value === undefined || located.value === null ? '' : String(located.value).trim(),
	};
}

/** The ID inside a locator value ('' when empty). */
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

/** A required locator parameter, checked to be a UUID before any request is sent. */
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
