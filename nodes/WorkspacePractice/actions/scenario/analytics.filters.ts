import type { INodeProperties } from 'n8n-workflow';

import type { QueryField } from '../../../shared/fields/filter.fields';
import {
	endDate,
	excludeSystemUsers,
	filtersCollection,
	peopleFilters,
	startDate,
} from '../../../shared/fields/filter.fields';

/** Filters both scenario analytics reports take: who, and when the sessions happened. */
export const analyticsFilterFields: QueryField[] = [
	...peopleFilters,
	startDate('sessions'),
	endDate('sessions'),
	excludeSystemUsers,
];

export const analyticsFilters: INodeProperties = filtersCollection(analyticsFilterFields);
