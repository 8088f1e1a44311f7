import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { pollManyUntilFinal } from '../../../shared/scenarioJob/waitMany';
import type { WaitingJob } from '../../../shared/scenarioJob/waitMany';
import type { PollSettings } from '../../../shared/scenarioJob/waitPolling';
import type { ItemOutcome } from '../../../shared/operations/operation';
import { asNodeError } from '../../../shared/transport';
import { createJob, settle } from './create.job';
import { buildBody, ownsRequestId, pollSettings, readMode, timeLimitMs } from './create.read';
import { everyItemPolls } from '../../../shared/operations/listWait';

type Prepared = { body: IDataObject; ownKey: boolean; settings: PollSettings } | { error: unknown };

function prepare(ctx: IExecuteFunctions, itemIndex: number): Prepared {
	try {
		return {
			body: buildBody(ctx, itemIndex, 'poll'),
			ownKey: ownsRequestId(ctx, itemIndex),
			settings: pollSettings(ctx, itemIndex, timeLimitMs(ctx, itemIndex)),
		};
	} catch (error) {
		return { error };
	}
}

/**
 * A list By Polling: every item's input is checked (without Continue On Fail, a bad item stops the
 * node before any request), then every job is created, one after another as fast as the service's
 * creation limit lets the transport go, then all are waited on together, each on its own schedule
 * and time limit. N jobs take about the creation time plus one job's duration.
 */
export async function executeAll(this: IExecuteFunctions): Promise<ItemOutcome[] | undefined> {
	const count = this.getInputData().length;
	if (!everyItemPolls(this, readMode)) return undefined;

	const prepared: Prepared[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const item = prepare(this, itemIndex);
		if ('error' in item && !this.continueOnFail())
			throw asNodeError(this.getNode(), item.error, itemIndex);
		prepared.push(item);
	}

	const outcomes: ItemOutcome[] = new Array<ItemOutcome>(count);
	const waiting: WaitingJob[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const item = prepared[itemIndex];
		if ('error' in item) {
			outcomes[itemIndex] = item;
			continue;
		}
		try {
			const job = await createJob(this, item.body, itemIndex, item.ownKey);
			waiting.push({ job, createdAt: Date.now(), settings: item.settings });
		} catch (error) {
			outcomes[itemIndex] = { error };
		}
	}

	const ended = await pollManyUntilFinal(this, waiting);
	ended.forEach((end, n) => {
		const { job, settings } = waiting[n];
		const itemIndex = settings.itemIndex;
		if ('error' in end) {
			outcomes[itemIndex] = end;
			return;
		}
		try {
			outcomes[itemIndex] = { result: settle(this, { ...end.job, is_new: job.is_new }, itemIndex) };
		} catch (error) {
			outcomes[itemIndex] = { error };
		}
	});
	return outcomes;
}
