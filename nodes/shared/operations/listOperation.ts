import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { QueryField } from '../fields/filter.fields';
import { filtersCollection, readFilters } from '../fields/filter.fields';
import { readListOptions, returnAllAndLimit } from '../fields/list.fields';
import { readSorting, sortFields } from '../fields/sort.fields';
import { apiList } from '../transport';
import type { OperationModule } from './operation';
import { forOperation } from './operation';

/** The path when it depends on the item (a locator in `lead`); read before the filters. */
export type PathOf = (ctx: IExecuteFunctions, itemIndex: number) => string;

export interface ListExtras {
	/** The operation's value, when it is not Get Many (`getAll`). */
	operation?: string;
	/** Fields before Return All, e.g. the locator of the object whose rows are listed. */
	lead?: INodeProperties[];
	/** Sort By / Sort Direction in an Options collection, for APIs that take one `sorting` value. */
	sort?: { keys: INodePropertyOptions[]; default: string };
}

/**
 * A list operation: optional lead fields, Return All / Limit, a Filters collection whose values
 * `toQuery` checks and encodes when the list has filters, and sorting when it sorts. Lists with other
 * options (an `include`) build on the same parts in their own operation file.
 */
export function listOperation(resource: string, path: string | PathOf, filterFields: QueryField[] = [], extras: ListExtras = {}): OperationModule {
	const fields: INodeProperties[] = [...(extras.lead ?? []), ...returnAllAndLimit];
	if (filterFields.length > 0) {
		fields.push(filtersCollection(filterFields));
	}
	const { sort } = extras;
	if (sort) {
		fields.push({
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: sortFields(sort.keys, sort.default),
		});
	}
	return {
		description: forOperation(resource, extras.operation ?? 'getAll', fields),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const listPath = typeof path === 'string' ? path : path(this, itemIndex);
			const qs = filterFields.length > 0 ? readFilters(this, itemIndex, filterFields) : {};
			if (sort) {
				const sorting = readSorting(this.getNodeParameter('options', itemIndex, {}) as IDataObject, sort.default);
				if (sorting) qs.sorting = sorting;
			}
			return await apiList<IDataObject>(this, listPath, qs, readListOptions(this, itemIndex));
		},
	};
}
