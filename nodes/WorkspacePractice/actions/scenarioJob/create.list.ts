import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { pollManyUntilFinal } from '../../../shared/scenarioJob/waitMany';
import { waiting } from '../../../shared/waitMany';
import type { WaitingJob } from '../../../shared/scenarioJob/waitMany';
import type { PollSettings } from '../../../shared/scenarioJob/waitPolling';
import type { ItemOutcome } from '../../../shared/operations/operation';
import { createThenWaitAll } from '../../../shared/operations/listWait';
import { createJob, settle } from './create.job';
import { buildBody, ownsRequestId, pollSettings, readMode, timeLimitMs } from './create.read';

interface Prepared {
	body: IDataObject;
	ownKey: boolean;
	settings: PollSettings;
}

/**
 * A list By Polling (`createThenWaitAll`): every job is created, one after another as fast as the
 * service's creation limit lets the transport go, then all are waited on together. N jobs take about
 * the creation time plus one job's duration.
 */
export async function executeAll(this: IExecuteFunctions): Promise<ItemOutcome[] | undefined> {
	return await createThenWaitAll<Prepared, WaitingJob>(this, {
		readMode,
		prepare: (ctx, itemIndex) => ({
			body: buildBody(ctx, itemIndex, 'poll'),
			ownKey: ownsRequestId(ctx, itemIndex),
			settings: pollSettings(ctx, itemIndex, timeLimitMs(ctx, itemIndex)),
		}),
		create: async (ctx, item, itemIndex) =>
			waiting(await createJob(ctx, item.body, itemIndex, item.ownKey), item.settings),
		wait: pollManyUntilFinal,
		result: (ctx, created, job) =>
			settle(ctx, { ...job, is_new: created.value.is_new }, created.settings.itemIndex),
	});
}
