import type { QueryField } from '../../../shared/fields/filter.fields';
import {
	endDate,
	excludeSystemUsers,
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
