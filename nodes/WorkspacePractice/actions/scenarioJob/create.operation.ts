import { randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { requiredMemberEmail } from '../../../shared/fields/member.locator';
import { isToolContext } from '../../../shared/toolContext';

import { CALLBACK_SECRET_HEADER } from '../../../shared/scenarioJob/callback';
import { pollManyUntilFinal } from '../../../shared/scenarioJob/waitMany';
import type { WaitingJob } from '../../../shared/scenarioJob/waitMany';
import { pollUntilFinal } from '../../../shared/scenarioJob/waitPolling';
import type { PollSettings } from '../../../shared/scenarioJob/waitPolling';
import { apiRequest, asNodeError, callbackSecret, withIsNew } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { forOperation } from '../../../shared/operations/operation';
import type { ItemOutcome, OperationResult } from '../../../shared/operations/operation';
import {
	CONTEXT_MAX,
	createFields,
	DEFAULT_FIRST_POLL_SECONDS,
	DEFAULT_TIME_LIMIT_MINUTES,
	MAX_TIME_LIMIT_MINUTES,
	PROMPT_MAX,
} from './create.fields';
import { isFinal, jobEndedError } from '../../../shared/scenarioJob/job';

export const description = forOperation('scenarioJob', 'create', createFields);

type WaitMode = 'off' | 'callback' | 'poll';

interface HeaderRow {
	name?: string;
	value?: string;
}

function readHeaders(additional: IDataObject): Record<string, string> {
	const rows = ((additional.callbackHeaders as IDataObject | undefined)?.header ??
		[]) as HeaderRow[];
	const headers: Record<string, string> = {};
	for (const row of rows) {
		const name = (row.name ?? '').trim();
		if (name !== '') headers[name] = String(row.value ?? '');
	}
	return headers;
}

/**
 * Same execution + node + item → same key, so a repeat of this step returns the first job. A tool
 * call gets a key of its own: one execution may carry many distinct calls (an agent's turn), and MCP
 * calls have no execution ID at all, so the execution-based key would hand every call the first job.
 * The body is built once per call, so the transport's retries of this POST send the same key.
 */
function derivedRequestId(ctx: IExecuteFunctions, itemIndex: number): string {
	if (isToolContext(ctx)) return `n8n-tool-${randomUUID()}`;
	return `n8n-${ctx.getExecutionId()}-${ctx.getNode().id}-${itemIndex}`;
}

function readRequestId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): string | undefined {
	const check = validator(ctx, itemIndex);
	const mode = check.oneOf('Options → Request ID', String(options.requestIdMode ?? 'derived'), [
		'derived',
		'custom',
		'none',
	]);
	if (mode === 'none') return undefined;
	if (mode === 'custom') return check.required('Options → Request ID Value', options.requestId);
	return derivedRequestId(ctx, itemIndex);
}

function readOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
}

/** The remix scenario's slug; a URL picked "By URL" is reduced to its slug by the locator's regex. */
function remixSlug(
	ctx: IExecuteFunctions,
	itemIndex: number,
	additional: IDataObject,
): string | undefined {
	if (additional.remixScenario === undefined) return undefined;
	const value = ctx.getNodeParameter('additionalFields.remixScenario', itemIndex, '', {
		extractValue: true,
	});
	const slug = typeof value === 'string' ? value.trim() : '';
	return slug === '' ? undefined : slug;
}

/** The request body, checked before anything is sent. */
function buildBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	mode: WaitMode,
): { body: IDataObject; headers: Record<string, string> } {
	const check = validator(ctx, itemIndex);
	const userEmail = requiredMemberEmail(
		check,
		'Member',
		ctx.getNodeParameter('userEmail', itemIndex, ''),
	);
	const prompt = check.maxLength(
		'Prompt',
		check.required('Prompt', ctx.getNodeParameter('prompt', itemIndex, '')),
		PROMPT_MAX,
	);
	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = { user_email: userEmail, prompt };
	const context = check.text('Context', additional.context);
	if (context.trim() !== '') body.context = check.maxLength('Context', context, CONTEXT_MAX);
	const slug = remixSlug(ctx, itemIndex, additional);
	if (slug !== undefined) body.scenario_slug = slug;
	const requestId = readRequestId(ctx, itemIndex, readOptions(ctx, itemIndex));
	if (requestId !== undefined) body.request_id = requestId;
	const callbackUrl =
		typeof additional.callbackUrl === 'string' ? additional.callbackUrl.trim() : '';
	if (callbackUrl !== '') {
		if (mode === 'callback') {
			throw new NodeOperationError(
				ctx.getNode(),
				'Callback URL: leave it empty with "Until Callback"',
				{
					itemIndex,
					description: `Item ${itemIndex + 1}: "Until Callback" sends this execution's own resume URL. Remove the Callback URL or choose another "Wait for Completion". No request was sent.`,
				},
			);
		}
		body.callback_url = check.webUrl('Callback URL', callbackUrl);
	}
	return { body, headers: readHeaders(additional) };
}

function timeLimitMs(ctx: IExecuteFunctions, itemIndex: number): number {
	const raw = readOptions(ctx, itemIndex).timeLimitMinutes ?? DEFAULT_TIME_LIMIT_MINUTES;
	const minutes = validator(ctx, itemIndex).intRange(
		'Options → Time Limit (Minutes)',
		raw,
		1,
		MAX_TIME_LIMIT_MINUTES,
	);
	return minutes * 60_000;
}

/** A final job is the result, unless it failed or was cancelled: then it is an error naming it. */
function settle(ctx: IExecuteFunctions, job: IDataObject, itemIndex: number): IDataObject {
	const error = jobEndedError(ctx.getNode(), job, itemIndex);
	if (error) throw error;
	return job;
}

/** The wait mode; a tool's default is Off (the tool variant's own default, see create.fields.ts). */
function readMode(ctx: IExecuteFunctions, itemIndex: number): WaitMode {
	const fallback: WaitMode = isToolContext(ctx) ? 'off' : 'poll';
	return ctx.getNodeParameter('waitForCompletion', itemIndex, fallback) as WaitMode;
}

/**
 * n8n cannot pause a tool call's execution for a webhook: it would fail after the job was created,
 * while the agent or MCP client is told all went well. So Until Callback is refused before anything.
 */
function refuseCallbackAsTool(ctx: IExecuteFunctions, itemIndex: number): void {
	throw new NodeOperationError(
		ctx.getNode(),
		'Wait for Completion: "Until Callback" cannot be used when the node runs as an AI tool',
		{
			itemIndex,
			description:
				'n8n cannot pause a tool call to wait for the service\'s callback. Choose "Off" (the job comes back queued at once; read it later with Scenario Job → Get) or "By Polling". No request was sent.',
		},
	);
}

function pollSettings(ctx: IExecuteFunctions, itemIndex: number, limitMs: number): PollSettings {
	const options = readOptions(ctx, itemIndex);
	const firstSeconds =
		typeof options.firstPollSeconds === 'number'
			? options.firstPollSeconds
			: DEFAULT_FIRST_POLL_SECONDS;
	return {
		firstDelayMs: firstSeconds * 1000,
		timeLimitMs: limitMs,
		cancelOnTimeout: options.cancelOnTimeout === true,
		itemIndex,
	};
}

/** POSTs the job; with a request_id a repeated POST returns the same job, so it is safe to retry. */
async function createJob(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const { status, body: created } = await apiRequest<IDataObject>(ctx, {
		method: 'POST',
		path: '/scenario-studio/jobs',
		body,
		idempotent: body.request_id !== undefined,
		itemIndex,
	});
	return withIsNew(created, status);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<OperationResult> {
	const mode = readMode(this, itemIndex);
	if (mode === 'callback' && isToolContext(this)) refuseCallbackAsTool(this, itemIndex);
	if (mode === 'callback' && this.getInputData().length > 1) {
		// n8n resumes a waiting execution once, so one execution can wait for one job's callback.
		throw new NodeOperationError(this.getNode(), 'Until Callback waits for one job per execution', {
			itemIndex,
			description: `This node got ${this.getInputData().length} items. Choose "By Polling" (it waits on all items' jobs together), use the Job Trigger in a second workflow, or put a Loop Over Items node (batch size 1) in front of it. No request was sent.`,
		});
	}
	const { body, headers } = buildBody(this, itemIndex, mode);
	const limitMs = mode === 'off' ? 0 : timeLimitMs(this, itemIndex);

	if (mode === 'callback') {
		// The resume URL as n8n gives it, query string (the signature of newer n8n) intact.
		body.callback_url = String(this.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex));
		headers[CALLBACK_SECRET_HEADER] = await callbackSecret(this, itemIndex);
	}
	if (Object.keys(headers).length > 0) body.callback_headers = headers;

	const job = await createJob(this, body, itemIndex);

	if (mode === 'off') return job;
	// An existing job (same request_id) may already be over: nothing to wait for.
	if (isFinal(job.status)) return settle(this, job, itemIndex);
	if (mode === 'poll') {
		const finalJob = await pollUntilFinal(this, job, pollSettings(this, itemIndex, limitMs));
		return settle(this, { ...finalJob, is_new: job.is_new }, itemIndex);
	}

	await waitForCallback(this, job, limitMs, itemIndex);
	return job;
}

/** Every item By Polling: then all jobs are created first and waited on together. */
function allByPolling(ctx: IExecuteFunctions, count: number): boolean {
	if (count < 2) return false;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			if (readMode(ctx, itemIndex) !== 'poll') return false;
		} catch {
			// An expression that fails here fails again, as that item's error, in the per-item path.
			return false;
		}
	}
	return true;
}

type Prepared = { body: IDataObject; settings: PollSettings } | { error: unknown };

function prepare(ctx: IExecuteFunctions, itemIndex: number): Prepared {
	try {
		const { body, headers } = buildBody(ctx, itemIndex, 'poll');
		if (Object.keys(headers).length > 0) body.callback_headers = headers;
		return { body, settings: pollSettings(ctx, itemIndex, timeLimitMs(ctx, itemIndex)) };
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
	if (!allByPolling(this, count)) return undefined;

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
			const job = await createJob(this, item.body, itemIndex);
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

/**
 * Pauses the execution until the callback reaches this node's webhook (see callback.webhook.ts).
 * If the time limit passes first, n8n continues without running this node again and passes on the
 * items standing in the node's input: so those are replaced by an error item naming the job. Its final
 * status is unknown then: the spec promises a callback only for completed jobs, so a failed or
 * cancelled job may simply never call back. The item says so, and how to read the status.
 */
async function waitForCallback(
	ctx: IExecuteFunctions,
	job: IDataObject,
	limitMs: number,
	itemIndex: number,
): Promise<void> {
	const minutes = Math.round((limitMs / 60_000) * 100) / 100;
	const executeData = ctx.getExecuteData();
	executeData.data = {
		main: [
			[
				{
					json: {
						error: `Scenario job ${String(job.id)} sent no callback within ${minutes} minute(s)`,
						description: `The service calls back when a job completes; a job that failed or was cancelled may send no callback at all. Read its final status with Scenario Job → Get (job ID ${String(job.id)}), or choose "By Polling", which reads the final status itself.`,
						job_id: job.id,
						status_when_created: job.status,
					},
					pairedItem: { item: itemIndex },
				},
			],
		],
	};
	await ctx.putExecutionToWait(new Date(Date.now() + limitMs));
}
