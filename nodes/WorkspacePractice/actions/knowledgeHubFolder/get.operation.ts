import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { folderLocator } from './folder.locator';
import { readUuidLocator } from '../../../shared/fields/locator';

const fields: INodeProperties[] = [folderLocator({ description: 'The folder to get. Pick it from the list or give its UUID.' })];

export const description = forOperation('knowledgeHubFolder', 'get', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const folderId = readUuidLocator(this, itemIndex, 'folderId', 'Folder');
	const { body } = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: `/knowledge-hub/folders/${encodeURIComponent(folderId)}`,
		itemIndex,
		what: `folder ${folderId}`,
	});
	return body;
}
