import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../../shared/transport';
import { readListOptions, returnAllAndLimit } from '../../../shared/fields/list.fields';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { readUuidLocator } from '../../../shared/fields/locator';
import { pageLocator } from './page.locator';

const fields: INodeProperties[] = [
	pageLocator({ description: 'The page whose version history to list (newest version first)' }),
	...returnAllAndLimit,
];

export const description = forOperation('knowledgeHubPage', 'getVersions', fields);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const pageId = readUuidLocator(this, itemIndex, 'pageId', 'Page ID');
	return await apiList<IDataObject>(
		this,
		`/knowledge-hub/pages/${encodeURIComponent(pageId)}/versions`,
		{},
		readListOptions(this, itemIndex),
	);
}
