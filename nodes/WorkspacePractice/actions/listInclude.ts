import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { filtersCollection, readFilters, type QueryField } from '../../shared/fields/filter.fields';
import { readListOptions, returnAllAndLimit } from '../../shared/fields/list.fields';
import { forOperation, type OperationModule } from '../../shared/operations/operation';
import { apiList } from '../../shared/transport';
import { optionsField } from './fields';

/** A Get Many whose Options `toggle` adds `include` (listOperation has no Options). */
export function listWithInclude(
	resource: string,
	path: string,
	filterFields: QueryField[],
	include: string,
	toggle: INodeProperties,
): OperationModule {
	const filters = filterFields.length > 0 ? [filtersCollection(filterFields)] : [];
	return {
		description: forOperation(resource, 'getAll', [
			...returnAllAndLimit,
			...filters,
			optionsField([toggle]),
		]),
		async execute(itemIndex) {
			const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
			const qs = filters.length > 0 ? readFilters(this, itemIndex, filterFields) : {};
			if (options[toggle.name] === true) qs.include = include;
			return await apiList<IDataObject>(this, path, qs, readListOptions(this, itemIndex));
		},
	};
}
