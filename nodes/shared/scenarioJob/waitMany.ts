import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { isFinal } from './job';
import { nextDelay, onTimeLimit, readJob } from './waitPolling';
import type { PollSettings } from './waitPolling';

/** One job to wait for: as created, when (Date.now() right after its creation) and how. */
export interface WaitingJob {
	job: IDataObject;
	createdAt: number;
	settings: PollSettings;
}

/** A job's end: its final state, or the error its wait ended with (time limit, a failed read). */
export type WaitOutcome = { job: IDataObject } | { error: unknown };

interface Pending {
	index: number;
	jobId: string;
	deadline: number;
	delay: number;
	/** The next read: after the current pause, never later than the deadline. */
	wakeAt: number;
	settings: PollSettings;
}

/**
 * Waits on many jobs in one loop, each on the schedule `pollUntilFinal` gives one job (first delay,
 * doubling to POLL_CAP_MS, a last read at its deadline, the time limit counted from its own creation),
 * so a job is read no more often than when waited on alone. The loop sleeps until the earliest next
 * read; jobs due together are read one after another. Outcomes come back in the order given.
 */
export async function pollManyUntilFinal(
	ctx: IExecuteFunctions,
	jobs: WaitingJob[],
): Promise<WaitOutcome[]> {
	const outcomes: Array<WaitOutcome | undefined> = jobs.map(({ job }) =>
		isFinal(job.status) ? { job } : undefined,
	);
	let pending: Pending[] = [];
	jobs.forEach(({ job, createdAt, settings }, index) => {
		if (outcomes[index]) return;
		const deadline = createdAt + settings.timeLimitMs;
		const delay = Math.max(0, settings.firstDelayMs);
		pending.push({
			index,
			jobId: String(job.id),
			deadline,
			delay,
			wakeAt: Math.min(createdAt + delay, deadline),
			settings,
		});
	});

	while (pending.length > 0) {
		const earliest = Math.min(...pending.map((p) => p.wakeAt));
		const pause = earliest - Date.now();
		if (pause > 0) await sleep(pause);
		const due = pending.filter((p) => p.wakeAt <= Date.now());
		for (const entry of due) {
			const outcome = await readOnce(ctx, entry);
			if (outcome) outcomes[entry.index] = outcome;
		}
		pending = pending.filter((p) => outcomes[p.index] === undefined);
	}
	// Every index has an outcome here: final at creation, or settled in the loop.
	return outcomes.map((outcome) => outcome ?? { error: new Error('job left without an outcome') });
}

/** One read of a due job: its outcome when it ended (or its wait did), else its next read is planned. */
async function readOnce(ctx: IExecuteFunctions, entry: Pending): Promise<WaitOutcome | undefined> {
	try {
		const current = await readJob(ctx, entry.jobId, entry.settings.itemIndex);
		if (isFinal(current.status)) return { job: current };
		if (Date.now() >= entry.deadline)
			return { job: await onTimeLimit(ctx, current, entry.settings) };
		entry.delay = nextDelay(Math.max(entry.delay, 1));
		entry.wakeAt = Math.min(Date.now() + entry.delay, entry.deadline);
		return undefined;
	} catch (error) {
		return { error };
	}
}
