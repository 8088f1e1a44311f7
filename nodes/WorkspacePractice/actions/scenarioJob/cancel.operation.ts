import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { cancelJob } from '../../../shared/scenarioJob/job';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { jobIdField, readJobId } from './job.fields';

const fields: INodeProperties[] = [
	{
		...jobIdField,
		description:
			'The queued or processing job to cancel. A job that already completed, failed or was cancelled cannot be cancelled (the service answers 400 job_not_cancellable).',
	},
];

export const description = forOperation('scenarioJob', 'cancel', fields);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	return await cancelJob(this, readJobId(this, itemIndex), itemIndex);
}
