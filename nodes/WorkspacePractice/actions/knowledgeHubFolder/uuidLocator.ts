import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { validator } from '../../helpers/validate';

/**
 * Resource locators for Knowledge Hub objects, whose IDs are UUIDs. The API gives pages, sources and
 * folders no web address of their own, so the modes are From List (a search that pages through the
 * API) and By ID.
 */

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export interface UuidLocatorOptions {
	displayName: string;
	name: string;
	/** Noun for placeholders, e.g. "page". */
	noun: string;
	searchListMethod: string;
	description: string;
	required?: boolean;
}

export function uuidLocator(options: UuidLocatorOptions): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? false,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${options.noun}...`,
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f2b8c1e-5a4d-4e7b-9c1a-2d3e4f5a6b7c',
				validation: [
					{
						type: 'regex',
						properties: { regex: UUID_PATTERN, errorMessage: `The ${options.noun} ID must be a UUID` },
					},
				],
			},
		],
	};
}

/**
 * The ID inside a locator value. Accepts the locator object n8n stores, or a plain string (an
 * expression or an AI agent may fill the field with the bare ID).
 */
export function locatorValue(value: unknown): string {
	if (typeof value === 'object' && value !== null && 'value' in value) {
		const inner = (value as { value: unknown }).value;
		return inner === undefined || inner === null ? '' : String(inner).trim();
	}
	return value === undefined || value === null ? '' : String(value).trim();
}

/** A required locator parameter, checked to be a UUID before any request is sent. */
export function readUuidLocator(ctx: IExecuteFunctions, itemIndex: number, name: string, label: string): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	return validator(ctx, itemIndex).uuid(label, locatorValue(raw));
}
