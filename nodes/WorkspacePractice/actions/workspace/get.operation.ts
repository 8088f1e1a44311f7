import type { IDataObject } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { notice } from '../fields';

export const description = forOperation('workspace', 'get', [
	notice(
		'notice',
		'Returns the workspace the API key belongs to: its ID, name, URL slug and creation date',
	),
]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	return await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: '/workspace',
		itemIndex,
	}).then(({ body }) => body);
};
