import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { readUuidLocator } from '../../../shared/fields/locator';
import { pageLocator } from './page.locator';

const fields: INodeProperties[] = [
	pageLocator({ description: 'The page to get. Pick it from the list (search by title) or give its UUID.' }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Draft',
				name: 'includeDraft',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the unpublished draft (its title and Markdown content) under "draft"; the published body is always in "content"',
			},
		],
	},
];

export const description = forOperation('knowledgeHubPage', 'get', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const pageId = readUuidLocator(this, itemIndex, 'pageId', 'Page');
	const options = this.getNodeParameter('options', itemIndex, {}) as { includeDraft?: boolean };
	const { body } = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: `/knowledge-hub/pages/${encodeURIComponent(pageId)}`,
		qs: options.includeDraft ? { include: 'draft' } : {},
		itemIndex,
		what: `page ${pageId}`,
	});
	return body;
}
