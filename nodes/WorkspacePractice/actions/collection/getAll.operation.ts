import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';

const fields: INodeProperties[] = [...returnAllAndLimit];

export const description = forOperation('collection', 'getAll', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	return await apiList<IDataObject>(this, '/collections', {}, readListOptions(this, itemIndex));
}
