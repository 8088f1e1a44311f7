import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CALLBACK_SECRET_HEADER } from '../../../shared/scenarioJob/callback';
import { pollUntilFinal } from '../../../shared/scenarioJob/waitPolling';
import { apiRequest, callbackSecret, withIsNew } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import {
	CONTEXT_MAX,
	createFields,
	DEFAULT_FIRST_POLL_SECONDS,
	DEFAULT_TIME_LIMIT_MINUTES,
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
	const rows = ((additional.callbackHeaders as IDataObject | undefined)?.header ?? []) as HeaderRow[];
	const headers: Record<string, string> = {};
	for (const row of rows) {
		const name = (row.name ?? '').trim();
		if (name !== '') headers[name] = String(row.value ?? '');
	}
	return headers;
}

/** Same execution + node + item → same key, so a repeat of this step returns the first job. */
function derivedRequestId(ctx: IExecuteFunctions, itemIndex: number): string {
	return `n8n-${ctx.getExecutionId()}-${ctx.getNode().id}-${itemIndex}`;
}

function readRequestId(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	const mode = ctx.getNodeParameter('requestIdMode', itemIndex, 'derived') as string;
	if (mode === 'none') return undefined;
	if (mode === 'custom') {
		return validator(ctx, itemIndex).required('Custom Request ID', ctx.getNodeParameter('requestId', itemIndex, ''));
	}
	return derivedRequestId(ctx, itemIndex);
}

/** The remix scenario's slug; a URL picked "By URL" is reduced to its slug by the locator's regex. */
function remixSlug(ctx: IExecuteFunctions, itemIndex: number, additional: IDataObject): string | undefined {
	if (additional.remixScenario === undefined) return undefined;
	const value = ctx.getNodeParameter('additionalFields.remixScenario', itemIndex, '', { extractValue: true });
	const slug = typeof value === 'string' ? value.trim() : '';
	return slug === '' ? undefined : slug;
}

/** The request body, checked before anything is sent. */
function buildBody(ctx: IExecuteFunctions, itemIndex: number, mode: WaitMode): { body: IDataObject; headers: Record<string, string> } {
	const check = validator(ctx, itemIndex);
	const userEmail = check.email('User', ctx.getNodeParameter('userEmail', itemIndex, ''));
	const prompt = check.maxLength('Prompt', check.required('Prompt', ctx.getNodeParameter('prompt', itemIndex, '')), PROMPT_MAX);
	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = { user_email: userEmail, prompt };
	const context = check.text('Context', additional.context);
	if (context.trim() !== '') body.context = check.maxLength('Context', context, CONTEXT_MAX);
	const slug = remixSlug(ctx, itemIndex, additional);
	if (slug !== undefined) body.scenario_slug = slug;
	const requestId = readRequestId(ctx, itemIndex);
	if (requestId !== undefined) body.request_id = requestId;
	const callbackUrl = typeof additional.callbackUrl === 'string' ? additional.callbackUrl.trim() : '';
	if (callbackUrl !== '') {
		if (mode === 'callback') {
			throw new NodeOperationError(ctx.getNode(), 'Callback URL: leave it empty with "Until Callback"', {
				itemIndex,
				description: `Item ${itemIndex + 1}: "Until Callback" sends this execution's own resume URL. Remove the Callback URL or choose another "Wait for Completion". No request was sent.`,
			});
		}
		body.callback_url = check.webUrl('Callback URL', callbackUrl);
	}
	return { body, headers: readHeaders(additional) };
}

function timeLimitMs(ctx: IExecuteFunctions, itemIndex: number): number {
	const minutes = Number(ctx.getNodeParameter('timeLimitMinutes', itemIndex, DEFAULT_TIME_LIMIT_MINUTES));
	if (!Number.isFinite(minutes) || minutes <= 0) {
		validator(ctx, itemIndex).fail('Time Limit (Minutes)', `must be a number above 0, got "${String(minutes)}"`);
	}
	return minutes * 60_000;
}

/** A final job is the result, unless it failed or was cancelled: then it is an error naming it. */
function settle(ctx: IExecuteFunctions, job: IDataObject, itemIndex: number): IDataObject {
	const error = jobEndedError(ctx.getNode(), job, itemIndex);
	if (error) throw error;
	return job;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const mode = this.getNodeParameter('waitForCompletion', itemIndex, 'poll') as WaitMode;
	if (mode === 'callback' && this.getInputData().length > 1) {
		// n8n resumes a waiting execution once, so one execution can wait for one job's callback.
		throw new NodeOperationError(this.getNode(), 'Until Callback waits for one job per execution', {
			itemIndex,
			description: `This node got ${this.getInputData().length} items. Put a Loop Over Items node (batch size 1) in front of it, or choose "By Polling". No request was sent.`,
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

	const { status, body: created } = await apiRequest<IDataObject>(this, {
		method: 'POST',
		path: '/scenario-studio/jobs',
		body,
		// With a request_id a repeated POST returns the same job, so it is safe to retry.
		idempotent: body.request_id !== undefined,
		itemIndex,
	});
	const job = withIsNew(created, status);

	if (mode === 'off') return job;
	// An existing job (same request_id) may already be over: nothing to wait for.
	if (isFinal(job.status)) return settle(this, job, itemIndex);
	if (mode === 'poll') {
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const firstSeconds = typeof options.firstPollSeconds === 'number' ? options.firstPollSeconds : DEFAULT_FIRST_POLL_SECONDS;
		const finalJob = await pollUntilFinal(this, job, {
			firstDelayMs: firstSeconds * 1000,
			timeLimitMs: limitMs,
			cancelOnTimeout: this.getNodeParameter('cancelOnTimeout', itemIndex, false) as boolean,
			itemIndex,
		});
		return settle(this, { ...finalJob, is_new: job.is_new }, itemIndex);
	}

	await waitForCallback(this, job, limitMs, itemIndex);
	return job;
}

/**
 * Pauses the execution until the callback reaches this node's webhook (see callback.webhook.ts).
 * If the time limit passes first, n8n continues without running this node again and passes on the
 * items standing in the node's input: so those are replaced by an error item naming the job. Its final
 * status is unknown then: the spec promises a callback only for completed jobs, so a failed or
 * cancelled job may simply never call back. The item says so, and how to read the status.
 */
async function waitForCallback(ctx: IExecuteFunctions, job: IDataObject, limitMs: number, itemIndex: number): Promise<void> {
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
