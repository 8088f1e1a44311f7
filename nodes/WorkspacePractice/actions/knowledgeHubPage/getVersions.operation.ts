import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import { readUuidLocator } from '../shared/locator';
import { pageLocator } from './page.locator';

const fields: INodeProperties[] = [
	pageLocator({ description: 'The page whose version history to list (newest version first)' }),
	...returnAllAndLimit,
];

export const description = forOperation('knowledgeHubPage', 'getVersions', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const pageId = readUuidLocator(this, itemIndex, 'pageId', 'Page');
	return await apiList<IDataObject>(
		this,
		`/knowledge-hub/pages/${encodeURIComponent(pageId)}/versions`,
		{},
		readListOptions(this, itemIndex),
	);
}
