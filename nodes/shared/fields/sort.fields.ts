import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { validator } from '../validate';

/**
 * Sorting, one way for every list that sorts: a Sort collection beside Filters with Sort By and, where
 * the API takes one, Direction. The API takes one value, "field" or "-field" for descending; with
 * neither field added the service's own order applies and no sort parameter is sent.
 */
export interface SortSpec {
	/** The values the list sorts by. Without `directional`, each name says its fixed order. */
	keys: INodePropertyOptions[];
	/** Sort By's default, and the key a Direction alone applies to. */
	default: string;
	/**
	 * Whether the API takes a direction (a leading "-"). Knowledge Hub pages do not: their spec fixes
	 * the order of each key (dates newest first, titles A to Z), so that form shows no Direction.
	 */
	directional: boolean;
	/**
	 * The query parameter names the value goes out under: the spec's name, and the deployed service's
	 * OpenAPI name as well where the two differ (docs/parameter-names.md).
	 */
	params: readonly string[];
	/** The order without a Sort, for the collection's description, e.g. "newest first". */
	serviceOrder: string;
}

const DIRECTIONS = ['ascending', 'descending'] as const;

/** The Sort collection of a list. */
export function sortCollection(spec: SortSpec): INodeProperties {
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
		options: spec.directional ? [sortBy, direction] : [sortBy],
	};
}

/**
 * The item's Sort collection as query parameters (the same value under every name in `params`), or
 * none to keep the service's order. Values from expressions are checked against the form's choices.
 */
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
	const keys = spec.keys.map((key) => String(key.value));
	const field = hasField
		? v.oneOf('Sort By', v.text('Sort By', values.field).trim(), keys)
		: spec.default;
	const direction = hasDirection
		? v.oneOf('Direction', v.text('Direction', values.direction).trim(), DIRECTIONS)
		: 'descending';
	const wire = spec.directional && direction === 'descending' ? `-${field}` : field;
	return Object.fromEntries(spec.params.map((name) => [name, wire]));
}
