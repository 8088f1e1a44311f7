import type { INodeProperties } from 'n8n-workflow';

import { cancelJob } from '../../../shared/scenarioJob/job';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { jobIdField, readJobId } from './job.fields';

const fields: INodeProperties[] = [
	{
		...jobIdField,
		description:
			'The queued or processing job to cancel. A job that already completed, failed or was cancelled cannot be cancelled (the service answers 400 job_not_cancellable).',
	},
];

export const description = forOperation('scenarioJob', 'cancel', fields);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	return await cancelJob(this, readJobId(this, itemIndex), itemIndex);
};
