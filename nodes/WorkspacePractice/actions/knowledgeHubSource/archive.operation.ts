import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { readUuidLocator } from '../../../shared/fields/locator';
import { sourceLocator } from './source.locator';

const fields: INodeProperties[] = [
	sourceLocator({
		description: 'The source to archive (a soft delete: it leaves lists and pages). Pick it from the list or give its UUID.',
	}),
];

export const description = forOperation('knowledgeHubSource', 'archive', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const sourceId = readUuidLocator(this, itemIndex, 'sourceId', 'Source');
	const { body } = await apiRequest<IDataObject | undefined>(this, {
		method: 'DELETE',
		path: `/knowledge-hub/sources/${encodeURIComponent(sourceId)}`,
		itemIndex,
		what: `source ${sourceId}`,
	});
	return body && typeof body === 'object' && Object.keys(body).length > 0 ? body : { id: sourceId, deleted: true };
}
