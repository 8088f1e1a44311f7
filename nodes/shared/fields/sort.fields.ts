import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { validator } from '../validate';

/** A Sort collection beside Filters: one value, "field" or "-field"; none keeps the service's order. */
export interface SortSpec {
	/** The values the list sorts by. Without `directional`, each name says its fixed order. */
	keys: INodePropertyOptions[];
	/** Sort By's default, and the key a Direction alone applies to. */
	default: string;
	/** Whether the API takes a leading "-" (Knowledge Hub pages' spec fixes each key's order). */
	directional: boolean;
	/** The spec's name, and the deployed OpenAPI's where they differ (docs/parameter-names.md). */
	params: readonly string[];
	/** The order without a Sort, for the collection's description, e.g. "newest first". */
	serviceOrder: string;
}

export function sortCollection(spec: SortSpec): INodeProperties {
	// A variable: the lint rule node-param-default-missing does not read `spec.default`.
	const defaultKey = spec.default;
	const sortBy: INodeProperties = {
		displayName: 'Sort By',
		name: 'field',
		type: 'options',
		options: spec.keys,
		default: defaultKey,
		description: spec.directional
			? 'Which value to order the results by'
			: 'Which value to order the results by; each one has its own fixed order, so there is no direction to choose',
	};
	const direction: INodeProperties = {
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		options: [
			{ name: 'Ascending', value: 'ascending', description: 'Lowest or oldest first' },
			{ name: 'Descending', value: 'descending', description: 'Highest or newest first' },
		],
		default: 'descending',
		description: 'Whether the highest or the lowest values come first',
	};
	return {
		displayName: 'Sort',
		name: 'sort',
		type: 'collection',
		placeholder: 'Add Sort Field',
		default: {},
		description: `The order of the results. Without a sort the service's own order applies: ${spec.serviceOrder}.`,
		options: spec.directional ? [direction, sortBy] : [sortBy],
	};
}

/** The item's Sort as query parameters (under every name in `params`), or none. */
export function readSort(ctx: IExecuteFunctions, itemIndex: number, spec: SortSpec): IDataObject {
	const values = ctx.getNodeParameter('sort', itemIndex, {}) as IDataObject;
	const v = validator(ctx, itemIndex);
	if (!spec.directional && values.direction !== undefined) {
		// Only an imported or hand-written workflow can carry one; sent, it would be ignored.
		v.fail(
			'Direction',
			'this list has no direction to choose: each Sort By value has its own fixed order',
		);
	}
	const hasField = values.field !== undefined && values.field !== '';
	const hasDirection =
		spec.directional && values.direction !== undefined && values.direction !== '';
	if (!hasField && !hasDirection) return {};
	const field = hasField ? v.text('Sort By', values.field).trim() : spec.default;
	const direction = hasDirection ? v.text('Direction', values.direction).trim() : 'descending';
	const wire = spec.directional && direction === 'descending' ? `-${field}` : field;
	return Object.fromEntries(spec.params.map((name) => [name, wire]));
}
