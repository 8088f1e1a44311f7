import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { jobEndedError } from '../../../shared/scenarioJob/job';
import { apiRequest, withIsNew } from '../../../shared/transport';
import { withContext } from './create.context';

/** What the single-item path and the list path both do with a job: create it, settle its end. */

/** A final job is the result, unless it failed or was cancelled: then it is an error naming it. */
export function settle(ctx: IExecuteFunctions, job: IDataObject, itemIndex: number): IDataObject {
	const error = jobEndedError(ctx.getNode(), job, itemIndex);
	if (error) throw error;
	return job;
}

/** How to check for a job whose creation answer was lost: the API cannot list jobs. */
const LOST_JOB_CHECK =
	'jobs cannot be listed, so look for the scenario it builds with Scenario → Get Many in about five minutes before creating it again. With Options → Request ID set (Derived or Custom), a repeat of the same request returns the same job instead of a second one';

/** POSTs the job; with a request_id a repeated POST returns the same job, so it is safe to retry. */
export async function createJob(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
	ownKey: boolean,
): Promise<IDataObject> {
	const response = await apiRequest<IDataObject>(ctx, {
		method: 'POST',
		path: '/scenario-studio/jobs',
		body: await withContext(ctx, body, itemIndex),
		idempotent: body.request_id !== undefined,
		itemIndex,
		ifLost: LOST_JOB_CHECK,
	});
	return withIsNew(response, ownKey);
}
