import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { forOperation } from '../common.fields';
import type { OperationResult } from '../types';

const fields: INodeProperties[] = [
	{
		displayName: 'Returns the workspace the API key belongs to: its ID, name, URL slug and creation date',
		name: 'notice',
		type: 'notice',
		default: '',
	},
];

export const description = forOperation('workspace', 'get', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const { body } = await apiRequest<IDataObject>(this, { method: 'GET', path: '/workspace', itemIndex });
	return body;
}
