/**
 * Which list the bench walks for items 1 and 2: Scenario → Get Many as the issue asks, or Member → Get
 * Many while the Scenario resource is not in the node yet (same transport, same pagination code).
 */
import { resources } from '../nodes/WorkspacePractice/actions/resources';
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
	if (resources.scenario?.operations.getAll) {
		return { resource: 'scenario', operation: 'getAll', path: '/scenarios', label: 'scenarios', dataKey: 'scenarios' };
	}
	return { resource: 'member', operation: 'getAll', path: '/workspace/members', label: 'members', dataKey: 'members' };
}
