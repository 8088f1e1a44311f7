import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { apiRequest, asNodeError } from '../transport';
import { isFinal, jobPath } from './job';

/** Backoff between status reads: start small, double, never wait more than a minute at a time. */
export const POLL_CAP_MS = 60_000;

export interface PollSettings {
	/** Wait before the first read; doubles after each read up to POLL_CAP_MS. */
	firstDelayMs: number;
	timeLimitMs: number;
	cancelOnTimeout: boolean;
	itemIndex: number;
}

/** The waits a poll makes, in order, for a given start: shown in docs and checked by tests. */
export function nextDelay(previous: number): number {
	return Math.min(previous * 2, POLL_CAP_MS);
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
		delay = nextDelay(Math.max(delay, 1));
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
