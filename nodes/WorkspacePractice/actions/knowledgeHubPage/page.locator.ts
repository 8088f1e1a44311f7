import type { INodeProperties } from 'n8n-workflow';

import type { UuidLocatorOptions } from '../knowledgeHubFolder/uuidLocator';
import { uuidLocator } from '../knowledgeHubFolder/uuidLocator';

/** A Knowledge Hub page picked from a searchable list (titles) or given by its UUID. */
export function pageLocator(overrides: Partial<UuidLocatorOptions> = {}): INodeProperties {
	return uuidLocator({
		displayName: 'Page',
		name: 'pageId',
		noun: 'page',
		searchListMethod: 'searchPages',
		description: 'The Knowledge Hub page. Pick it from the list (search by title) or give its UUID.',
		required: true,
		...overrides,
	});
}
