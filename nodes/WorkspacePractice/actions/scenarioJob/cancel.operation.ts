import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { jobIdField, readJobId } from './job.fields';
import { jobPath } from '../../../shared/scenarioJob/job';

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
	const jobId = readJobId(this, itemIndex);
	const { body } = await apiRequest<IDataObject>(this, {
		method: 'DELETE',
		path: jobPath(jobId),
		itemIndex,
		what: `job ${jobId}`,
	});
	return body;
}
