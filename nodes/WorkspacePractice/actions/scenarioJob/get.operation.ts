import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { jobIdField, readJobId } from './job.fields';
import { jobPath } from '../../../shared/scenarioJob/job';

export const description = forOperation('scenarioJob', 'get', [jobIdField]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const jobId = readJobId(this, itemIndex);
	const { body } = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: jobPath(jobId),
		itemIndex,
		what: `job ${jobId}`,
	});
	return body;
}
