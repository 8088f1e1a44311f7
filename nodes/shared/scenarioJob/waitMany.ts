import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { waitMany } from '../waitMany';
import type { WaitEnd, Waiting, WaitKind } from '../waitMany';
import { isFinal } from './job';
import { nextDelay, onTimeLimit, readJob } from './waitPolling';
import type { PollSettings } from './waitPolling';

/** One job to wait for: as created, when (Date.now() right after its creation) and how. */
export type WaitingJob = Waiting<IDataObject, PollSettings>;

/**
 * Jobs as a kind of wait: read one by one (the API cannot list jobs), each on the schedule
 * `pollUntilFinal` gives one job (first delay, doubling to POLL_CAP_MS), at the time limit cancelled
 * when asked, then an error naming the job. A final job is its end as it is (settled by the caller).
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

/** Waits on many jobs in one loop, each on its own schedule and time limit; ends in the order given. */
export async function pollManyUntilFinal(
	ctx: IExecuteFunctions,
	jobs: WaitingJob[],
): Promise<Array<WaitEnd<IDataObject>>> {
	return await waitMany(jobKind(ctx), jobs);
}
