import type { INodeProperties } from 'n8n-workflow';

import type { UuidLocatorOptions } from '../knowledgeHubFolder/uuidLocator';
import { uuidLocator } from '../knowledgeHubFolder/uuidLocator';

/** A Knowledge Hub source picked from a searchable list (titles) or given by its UUID. */
export function sourceLocator(overrides: Partial<UuidLocatorOptions> = {}): INodeProperties {
	return uuidLocator({
		displayName: 'Source',
		name: 'sourceId',
		noun: 'source',
		searchListMethod: 'searchSources',
		description: 'The Knowledge Hub source. Pick it from the list (search by title) or give its UUID.',
		required: true,
		...overrides,
	});
}
