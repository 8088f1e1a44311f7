import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator, readLocator } from '../../../shared/fields/locator';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { cancelJob, readJob } from '../../../shared/scenarioJob/job';

/** The job to read or cancel. By ID only: the API has no endpoint that lists jobs. */
const jobIdField: INodeProperties = locator({
	displayName: 'Job ID',
	name: 'jobId',
	required: true,
	description: 'The scenario job, by the ID that Create returned',
	hint: 'The API has no endpoint that lists jobs, so give the ID, e.g. from the Create step: {{ $json.id }}',
	modes: [
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. j1o2b3i4d5x6',
			validation: [
				{ type: 'regex', properties: { regex: '^\\S+$', errorMessage: 'A job ID has no spaces' } },
			],
		},
	],
});

function readJobId(ctx: IExecuteFunctions, itemIndex: number): string {
	return readLocator(ctx, itemIndex, 'jobId', 'Job ID').value;
}

/** Scenario Job → Get and Cancel: one job by its ID. */
export const get: OperationModule = {
	description: forOperation('scenarioJob', 'get', [jobIdField]),
	async execute(itemIndex) {
		return await readJob(this, readJobId(this, itemIndex), itemIndex);
	},
};

export const cancel: OperationModule = {
	description: forOperation('scenarioJob', 'cancel', [
		{
			...jobIdField,
			description:
				'The queued or processing job to cancel. A job that already completed, failed or was cancelled cannot be cancelled (the service answers 400 job_not_cancellable).',
		},
	]),
	async execute(itemIndex) {
		return await cancelJob(this, readJobId(this, itemIndex), itemIndex);
	},
};
