import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { readUuidLocator } from '../../../shared/fields/locator';
import { sourceLocator } from './source.locator';

const fields: INodeProperties[] = [
	sourceLocator({ description: 'The source to get. Pick it from the list (search by title) or give its UUID.' }),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Content',
				name: 'includeContent',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the extracted text under "content". It is read from storage and can be large, so it is off by default.',
			},
		],
	},
];

export const description = forOperation('knowledgeHubSource', 'get', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const sourceId = readUuidLocator(this, itemIndex, 'sourceId', 'Source');
	const options = this.getNodeParameter('options', itemIndex, {}) as { includeContent?: boolean };
	const { body } = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: `/knowledge-hub/sources/${encodeURIComponent(sourceId)}`,
		qs: options.includeContent ? { include: 'content' } : {},
		itemIndex,
		what: `source ${sourceId}`,
	});
	return body;
}
