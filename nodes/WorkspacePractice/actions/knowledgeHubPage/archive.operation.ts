import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { readUuidLocator } from '../../../shared/fields/locator';
import { pageLocator } from './page.locator';

const fields: INodeProperties[] = [
	pageLocator({
		description:
			'The page to archive. It disappears from lists but its version history is kept. Pick it from the list or give its UUID.',
	}),
];

export const description = forOperation('knowledgeHubPage', 'archive', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const pageId = readUuidLocator(this, itemIndex, 'pageId', 'Page');
	const { body } = await apiRequest<IDataObject | undefined>(this, {
		method: 'DELETE',
		path: `/knowledge-hub/pages/${encodeURIComponent(pageId)}`,
		itemIndex,
		what: `page ${pageId}`,
	});
	// The spec leaves the answer's shape open: keep what the API says, or state the outcome ourselves.
	return body && typeof body === 'object' && Object.keys(body).length > 0 ? body : { id: pageId, deleted: true };
}
