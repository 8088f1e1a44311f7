import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';

const fields: INodeProperties[] = [
	{
		displayName:
			'Returns the workspace the API key belongs to: its ID, name, URL slug and creation date',
		name: 'notice',
		type: 'notice',
		default: '',
	},
];

export const description = forOperation('workspace', 'get', fields);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const { body } = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: '/workspace',
		itemIndex,
	});
	return body;
}
