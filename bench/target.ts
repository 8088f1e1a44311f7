/** The list the bench walks for items 1 and 2: Scenario → Get Many. */
import type { DataSize } from '../simulator/index';

export interface ListTarget {
	resource: string;
	operation: string;
	/** API path the operation lists. */
	path: string;
	/** Plural noun for the output. */
	label: string;
	dataKey: keyof DataSize;
}

export function listTarget(): ListTarget {
	return {
		resource: 'scenario',
		operation: 'getAll',
		path: '/scenarios',
		label: 'scenarios',
		dataKey: 'scenarios',
	};
}
