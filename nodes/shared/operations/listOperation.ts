import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { QueryField } from '../fields/filter.fields';
import { filtersCollection, readFilters } from '../fields/filter.fields';
import { readListOptions, returnAllAndLimit } from '../fields/list.fields';
import type { SortSpec } from '../fields/sort.fields';
import { readSort, sortCollection } from '../fields/sort.fields';
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
	sort?: SortSpec;
}

/** A list operation: lead fields, Return All / Limit, then Filters and Sort where the list has them. */
export function listOperation(
	resource: string,
	path: string | PathOf,
	filterFields: QueryField[] = [],
	extras: ListExtras = {},
): OperationModule {
	const fields: INodeProperties[] = [...(extras.lead ?? []), ...returnAllAndLimit];
	if (filterFields.length > 0) fields.push(filtersCollection(filterFields));
	const { sort } = extras;
	if (sort) fields.push(sortCollection(sort));
	return {
		description: forOperation(resource, extras.operation ?? 'getAll', fields),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const listPath = typeof path === 'string' ? path : path(this, itemIndex);
			const qs = filterFields.length > 0 ? readFilters(this, itemIndex, filterFields) : {};
			if (sort) Object.assign(qs, readSort(this, itemIndex, sort));
			return await apiList<IDataObject>(this, listPath, qs, readListOptions(this, itemIndex));
		},
	};
}
