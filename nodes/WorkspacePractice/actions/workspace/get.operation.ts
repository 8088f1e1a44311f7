import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';

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

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const { body } = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: '/workspace',
		itemIndex,
	});
	return body;
};
