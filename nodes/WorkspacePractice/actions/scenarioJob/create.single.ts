import type { IExecuteFunctions } from 'n8n-workflow';

import { isFinal } from '../../../shared/scenarioJob/job';
import { pollUntilFinal } from '../../../shared/scenarioJob/waitPolling';
import type { OperationResult } from '../../../shared/operations/operation';
import { createJob, settle } from './create.job';
import { buildBody, ownsRequestId, pollSettings, readMode, timeLimitMs } from './create.read';
import { addCallback, refuseCallback, waitForCallback } from './create.untilCallback';

/** One item: create its job, then (as Wait for Completion says) return it, poll it, or wait for its callback. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const mode = readMode(this, itemIndex);
	if (mode === 'callback') refuseCallback(this, itemIndex);
	const body = buildBody(this, itemIndex, mode);
	const limitMs = mode === 'off' ? 0 : timeLimitMs(this, itemIndex);

	if (mode === 'callback') await addCallback(this, body, itemIndex);

	const job = await createJob(this, body, itemIndex, ownsRequestId(this, itemIndex));

	if (mode === 'off') return job;
	// An existing job (same request_id) may already be over: nothing to wait for.
	if (isFinal(job.status)) return settle(this, job, itemIndex);
	if (mode === 'poll') {
		const finalJob = await pollUntilFinal(this, job, pollSettings(this, itemIndex, limitMs));
		return settle(this, { ...finalJob, is_new: job.is_new }, itemIndex);
	}

	await waitForCallback(this, job, limitMs, itemIndex);
	return job;
}
