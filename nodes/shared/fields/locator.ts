import type { IExecuteFunctions, INodeProperties, INodePropertyMode } from 'n8n-workflow';

import type { InputValidator } from '../validate';
import { validator } from '../validate';

/**
 * Resource locators: the field builders every resource's picker is made of, and the readers that
 * turn a locator's form value into a checked ID. Resource-specific pickers (`<resource>.locator.ts`)
 * are built from these.
 */

const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

// ---- Field builders ----

export interface LocatorFieldOptions {
	displayName: string;
	name: string;
	description: string;
	required?: boolean;
	/** The `listSearch` method that fills the From List mode. */
	searchListMethod: string;
	listPlaceholder?: string;
	/** The modes after From List: By ID, By URL. */
	modes: INodePropertyMode[];
}

/** A resource locator field that opens on From List (a searchable list), followed by `modes`. */
export function locatorField(options: LocatorFieldOptions): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		// Left out rather than defaulted: a field without `required` keeps its description unchanged.
		...(options.required === undefined ? {} : { required: options.required }),
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				...(options.listPlaceholder === undefined ? {} : { placeholder: options.listPlaceholder }),
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			...options.modes,
		],
	};
}

export interface UuidLocatorOptions {
	displayName: string;
	name: string;
	/** Noun for placeholders, e.g. "page". */
	noun: string;
	searchListMethod: string;
	description: string;
	required?: boolean;
}

/** A locator for objects whose IDs are UUIDs and which have no web address: From List and By ID. */
export function uuidLocator(options: UuidLocatorOptions): INodeProperties {
	return uuidLocatorField({
		displayName: options.displayName,
		name: options.name,
		required: options.required ?? false,
		description: options.description,
		searchListMethod: options.searchListMethod,
		listPlaceholder: `Select a ${options.noun}...`,
		idError: `The ${options.noun} ID must be a UUID`,
	});
}

export interface UuidLocatorFieldOptions extends Omit<LocatorFieldOptions, 'modes'> {
	/** What the form says when By ID is not a UUID. */
	idError: string;
	idPlaceholder?: string;
}

/** From List and a By ID mode that the form checks to be a UUID as it is typed. */
export function uuidLocatorField(options: UuidLocatorFieldOptions): INodeProperties {
	const { idError, idPlaceholder, ...field } = options;
	return locatorField({
		...field,
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: idPlaceholder ?? 'e.g. 3f2b8c1e-5a4d-4e7b-9c1a-2d3e4f5a6b7c',
				validation: [{ type: 'regex', properties: { regex: UUID_PATTERN, errorMessage: idError } }],
			},
		],
	});
}

/**
 * A resource's picker with its defaults; callers override what differs where it is used (another
 * name, not required inside Filters, a description of its role there).
 */
export function uuidLocatorWith(
	defaults: UuidLocatorOptions,
): (overrides?: Partial<UuidLocatorOptions>) => INodeProperties {
	return (overrides = {}) => uuidLocator({ ...defaults, ...overrides });
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
