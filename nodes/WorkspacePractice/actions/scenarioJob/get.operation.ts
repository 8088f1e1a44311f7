import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { forOperation } from '../common.fields';
import type { OperationResult } from '../types';
import { jobIdField, readJobId } from './job.fields';
import { jobPath } from './job';

export const description = forOperation('scenarioJob', 'get', [jobIdField]);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const jobId = readJobId(this, itemIndex);
	const { body } = await apiRequest<IDataObject>(this, { method: 'GET', path: jobPath(jobId), itemIndex, what: `job ${jobId}` });
	return body;
}
