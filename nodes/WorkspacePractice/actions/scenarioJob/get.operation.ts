import type { IExecuteFunctions } from 'n8n-workflow';

import { readJob } from '../../../shared/scenarioJob/job';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { jobIdField, readJobId } from './job.fields';

export const description = forOperation('scenarioJob', 'get', [jobIdField]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	return await readJob(this, readJobId(this, itemIndex), itemIndex);
}
