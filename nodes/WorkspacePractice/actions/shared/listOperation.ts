import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationModule } from '../types';
import type { QueryField } from './filter.fields';
import { filtersCollection, readFilters } from './filter.fields';

/**
 * A plain Get Many: Return All / Limit and, when the list has filters, a Filters collection whose
 * values `toQuery` checks and encodes. Lists with more to them (sorting, options) build on the same
 * parts in their own operation file.
 */
export function listOperation(resource: string, path: string, filterFields: QueryField[] = []): OperationModule {
	const fields: INodeProperties[] = [...returnAllAndLimit];
	if (filterFields.length > 0) {
		fields.push(filtersCollection(filterFields));
	}
	return {
		description: forOperation(resource, 'getAll', fields),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const qs = filterFields.length > 0 ? readFilters(this, itemIndex, filterFields) : {};
			return await apiList<IDataObject>(this, path, qs, readListOptions(this, itemIndex));
		},
	};
}
