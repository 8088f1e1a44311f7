import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../transport';
import { waitMany } from '../waitMany';
import type { WaitEnd, Waiting, WaitKind, WaitSettings } from '../waitMany';
import { cancelJob, isFinal, readJob } from './job';

export interface PollSettings extends WaitSettings {
	cancelOnTimeout: boolean;
}

export type WaitingJob = Waiting<IDataObject, PollSettings>;

/** Pauses double from 1 s (times are stamped in whole seconds) to a minute. */
export function nextDelay(previous: number): number {
	return Math.min(Math.max(previous * 2, 1_000), 60_000);
}

/** A job running at its time limit: cancelled when asked, then an error (or the job as it ended). */
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

/** Waits on jobs, read one by one (the API cannot list jobs); ends in the order given. */
export async function waitForJobs(
	ctx: IExecuteFunctions,
	jobs: WaitingJob[],
): Promise<Array<WaitEnd<IDataObject>>> {
	const kind: WaitKind<IDataObject, WaitingJob> = {
		isDone: (job) => isFinal(job.status),
		finish: (_waiting, job) => job,
		atDeadline: async (waiting, job) => await onTimeLimit(ctx, job, waiting.settings),
		nextDelay,
		readOne: async (waiting) =>
			await readJob(ctx, String(waiting.value.id), waiting.settings.itemIndex),
	};
	return await waitMany(kind, jobs);
}
