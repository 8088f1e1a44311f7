import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { pollManyUntilFinal } from '../../../shared/scenarioJob/waitMany';
import type { WaitingJob } from '../../../shared/scenarioJob/waitMany';
import type { PollSettings } from '../../../shared/scenarioJob/waitPolling';
import type { ItemOutcome } from '../../../shared/operations/operation';
import { createJob, settle } from './create.job';
import { buildBody, ownsRequestId, pollSettings, readMode, timeLimitMs } from './create.read';
import { createInOrder, everyItemPolls, prepareAll } from '../../../shared/operations/listWait';

interface Prepared {
	body: IDataObject;
	ownKey: boolean;
	settings: PollSettings;
}

function prepare(ctx: IExecuteFunctions, itemIndex: number): Prepared {
	return {
		body: buildBody(ctx, itemIndex, 'poll'),
		ownKey: ownsRequestId(ctx, itemIndex),
		settings: pollSettings(ctx, itemIndex, timeLimitMs(ctx, itemIndex)),
	};
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

	const prepared = prepareAll(this, (itemIndex) => prepare(this, itemIndex));
	const outcomes: ItemOutcome[] = new Array<ItemOutcome>(count);
	const waiting: WaitingJob[] = await createInOrder(
		prepared,
		outcomes,
		async (item, itemIndex) => ({
			job: await createJob(this, item.body, itemIndex, item.ownKey),
			createdAt: Date.now(),
			settings: item.settings,
		}),
	);

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
