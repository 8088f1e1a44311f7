import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../transport';
import { waitMany } from '../waitMany';
import type { WaitEnd, Waiting, WaitKind, WaitSettings } from '../waitMany';
import { cancelJob, isFinal, readJob } from './job';

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

/** One job to wait for: as created, when (Date.now() right after its creation) and how. */
export type WaitingJob = Waiting<IDataObject, PollSettings>;

/** The pause after a read, from the one before it: twice as long, within POLL_MIN_MS and POLL_CAP_MS. */
export function nextDelay(previous: number): number {
	return Math.min(Math.max(previous * 2, POLL_MIN_MS), POLL_CAP_MS);
}

/**
 * A job still running at its time limit: cancelled first when asked, then an error naming the job and
 * its last status (or the job as it ended, when it finished before the cancel reached it).
 */
async function onTimeLimit(
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
		await cancelJob(ctx, jobId, settings.itemIndex);
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

/**
 * Jobs as a kind of wait: read one by one (the API cannot list jobs), each from its first delay with
 * pauses doubling to POLL_CAP_MS; a 429 while reading is waited out by the transport, so the pauses
 * only add to what the service asks. A final job is its end as it is (settled by the caller).
 */
function jobKind(ctx: IExecuteFunctions): WaitKind<IDataObject, WaitingJob> {
	return {
		isDone: (job) => isFinal(job.status),
		finish: (_waiting, job) => job,
		atDeadline: async (waiting, job) => await onTimeLimit(ctx, job, waiting.settings),
		nextDelay,
		readOne: async (waiting) =>
			await readJob(ctx, String(waiting.value.id), waiting.settings.itemIndex),
	};
}

/**
 * Waits on jobs (one, or a list in one loop), each on its own schedule and time limit, until each is
 * final; ends in the order given.
 */
export async function waitForJobs(
	ctx: IExecuteFunctions,
	jobs: WaitingJob[],
): Promise<Array<WaitEnd<IDataObject>>> {
	return await waitMany(jobKind(ctx), jobs);
}
