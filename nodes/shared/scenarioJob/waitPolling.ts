import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { apiRequest, asNodeError } from '../transport';
import type { WaitSettings } from '../waitMany';
import { isFinal, jobPath } from './job';

/** Backoff between status reads: start small, double, never wait more than a minute at a time. */
export const POLL_CAP_MS = 60_000;
/**
 * No pause after a read is shorter than this, whatever the first one: the service stamps times in whole
 * seconds and allows 60 requests a minute, so reading one job more often than once a second only spends.
 */
export const POLL_MIN_MS = 1_000;

/** The first read after `firstDelayMs` (0: at once); then pauses double, from POLL_MIN_MS to POLL_CAP_MS. */
export interface PollSettings extends WaitSettings {
	cancelOnTimeout: boolean;
}

/** The pause after a read, from the one before it: twice as long, within POLL_MIN_MS and POLL_CAP_MS. */
export function nextDelay(previous: number): number {
	return Math.min(Math.max(previous * 2, POLL_MIN_MS), POLL_CAP_MS);
}

export async function readJob(
	ctx: IExecuteFunctions,
	jobId: string,
	itemIndex: number,
): Promise<IDataObject> {
	const { body } = await apiRequest<IDataObject>(ctx, {
		method: 'GET',
		path: jobPath(jobId),
		itemIndex,
		what: `job ${jobId}`,
	});
	return body;
}

/**
 * Reads the job with growing pauses until it is final or the time limit passes. A 429 while reading is
 * waited out by the transport (Retry-After), so the pauses here only add to what the service asks.
 * On the limit: cancel first when asked, then an error naming the job and its last status.
 */
export async function pollUntilFinal(
	ctx: IExecuteFunctions,
	job: IDataObject,
	settings: PollSettings,
): Promise<IDataObject> {
	const jobId = String(job.id);
	const deadline = Date.now() + settings.timeLimitMs;
	let delay = Math.max(0, settings.firstDelayMs);
	let current = job;
	while (!isFinal(current.status)) {
		const remaining = deadline - Date.now();
		if (remaining <= 0) return await onTimeLimit(ctx, current, settings);
		await sleep(Math.min(delay, remaining));
		current = await readJob(ctx, jobId, settings.itemIndex);
		delay = nextDelay(delay);
	}
	return current;
}

export async function onTimeLimit(
	ctx: IExecuteFunctions,
	job: IDataObject,
	settings: PollSettings,
): Promise<IDataObject> {
	const jobId = String(job.id);
	const minutes = Math.round((settings.timeLimitMs / 60_000) * 100) / 100;
	const lead = `Scenario job ${jobId} did not finish within ${minutes} minute(s); its last status was "${String(job.status)}"`;
	if (!settings.cancelOnTimeout) {
		throw new NodeOperationError(ctx.getNode(), lead, {
			itemIndex: settings.itemIndex,
			description:
				'The job keeps running on the service. Raise "Time Limit (Minutes)", read it later with Scenario Job → Get, or turn on "Cancel Job on Timeout".',
		});
	}
	try {
		await apiRequest<IDataObject>(ctx, {
			method: 'DELETE',
			path: jobPath(jobId),
			itemIndex: settings.itemIndex,
			what: `job ${jobId}`,
		});
	} catch (error) {
		// 400 job_not_cancellable: it finished between the last read and the cancel; report what it became.
		if (error instanceof NodeApiError && error.httpCode === '400') {
			const settled = await readJob(ctx, jobId, settings.itemIndex);
			if (isFinal(settled.status)) return settled;
		}
		throw asNodeError(ctx.getNode(), error, settings.itemIndex);
	}
	throw new NodeOperationError(ctx.getNode(), `${lead}. The job was cancelled.`, {
		itemIndex: settings.itemIndex,
		description:
			'"Cancel Job on Timeout" is on, so the job was cancelled on the service before this error.',
	});
}
