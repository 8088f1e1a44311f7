import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { createThenWaitAll } from '../../../shared/operations/listWait';
import {
	forOperation,
	type ItemOutcome,
	type OperationModule,
} from '../../../shared/operations/operation';
import { testUrlNotice } from '../../../shared/scenarioJob/callback';
import { isFinal, jobEndedError } from '../../../shared/scenarioJob/job';
import { waitForJobs, type PollSettings, type WaitingJob } from '../../../shared/scenarioJob/wait';
import { apiRequest, withIsNew } from '../../../shared/transport';
import { waiting, type WaitEnd } from '../../../shared/waitMany';
import { withContext } from './create.context';
import { createFields } from './create.fields';
import { buildBody, ownsRequestId, pollSettings, readMode } from './create.read';
import {
	addCallback,
	refuseCallback,
	refuseCallbackAsTool,
	waitForCallback,
} from './create.untilCallback';
import { isToolContext } from '../../../shared/toolContext';

export const description = forOperation('scenarioJob', 'create', createFields);

/** How to check for a job whose creation answer was lost: the API cannot list jobs. */
const LOST_JOB_CHECK =
	'jobs cannot be listed, so look for the scenario it builds with Scenario → Get Many in about five minutes before creating it again. With Options → Request ID set (Derived or Custom), a repeat of the same request returns the same job instead of a second one';

/** POSTs the job; with a request_id a repeated POST returns the same job, so it is safe to retry. */
async function createJob(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
	ownKey: boolean,
): Promise<IDataObject> {
	const response = await apiRequest<IDataObject>(ctx, {
		method: 'POST',
		path: '/scenario-studio/jobs',
		body: await withContext(ctx, body, itemIndex),
		idempotent: body.request_id !== undefined,
		itemIndex,
		ifLost: LOST_JOB_CHECK,
	});
	const job = withIsNew(response, ownKey);
	// Said on the item, where the user looks: a test-path callback silently starts nothing.
	const notice = testUrlNotice(body.callback_url);
	return notice === undefined ? job : { ...job, notice };
}

/** A waited job's end, keeping is_new and notice from its creation (a read does not say). */
function settle(
	ctx: IExecuteFunctions,
	created: WaitingJob,
	end: WaitEnd<IDataObject>,
): IDataObject {
	if ('error' in end) throw end.error;
	const job = {
		...end.value,
		is_new: created.value.is_new,
		...(created.value.notice === undefined ? {} : { notice: created.value.notice }),
	};
	const error = jobEndedError(ctx.getNode(), job, created.settings.itemIndex);
	if (error) throw error;
	return job;
}

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const mode = readMode(this, itemIndex);
	if (mode === 'callback') refuseCallback(this, itemIndex);
	const body = buildBody(this, itemIndex, mode);
	const ownKey = ownsRequestId(this, itemIndex);
	if (mode === 'off') return await createJob(this, body, itemIndex, ownKey);

	const settings = pollSettings(this, itemIndex);
	if (mode === 'callback') await addCallback(this, body, itemIndex);
	const created = waiting(await createJob(this, body, itemIndex, ownKey), settings);
	// By Polling, and an existing job (same request_id) already over: its end without a read.
	if (mode === 'poll' || isFinal(created.value.status)) {
		const [end] = await waitForJobs(this, [created]);
		return settle(this, created, end);
	}
	await waitForCallback(this, created.value, settings.timeLimitMs, itemIndex);
	return created.value;
};

/** A list By Polling: every job created, then all waited on together. */
export async function executeAll(this: IExecuteFunctions): Promise<ItemOutcome[] | undefined> {
	return await createThenWaitAll<
		{ body: IDataObject; ownKey: boolean; settings: PollSettings },
		WaitingJob
	>(this, {
		readMode,
		prepare: (ctx, itemIndex) => ({
			body: buildBody(ctx, itemIndex, 'poll'),
			ownKey: ownsRequestId(ctx, itemIndex),
			settings: pollSettings(ctx, itemIndex),
		}),
		create: async (ctx, item, itemIndex) =>
			waiting(await createJob(ctx, item.body, itemIndex, item.ownKey), item.settings),
		wait: waitForJobs,
		result: (ctx, created, job) => settle(ctx, created, { value: job }),
	});
}

/** The tool's Wait for Completion offers no Until Callback: say why rather than what it offers. */
export function explainUnoffered(
	this: IExecuteFunctions,
	itemIndex: number,
	path: string,
	value: unknown,
): void {
	if (path === 'waitForCompletion' && value === 'callback' && isToolContext(this))
		refuseCallbackAsTool(this, itemIndex);
}
