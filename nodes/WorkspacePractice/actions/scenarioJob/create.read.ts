import { randomUUID } from 'node:crypto';
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { callbackUrlForJob } from '../../../shared/scenarioJob/callback';
import type { PollSettings } from '../../../shared/scenarioJob/wait';
import { isToolContext } from '../../../shared/toolContext';
import { validator } from '../../../shared/validate';
import { itemRef } from '../../../shared/values';
import {
	CONTEXT_MAX,
	DEFAULT_FIRST_POLL_SECONDS,
	DEFAULT_TIME_LIMIT_MINUTES,
	MAX_TIME_LIMIT_MINUTES,
	PROMPT_MAX,
} from './create.fields';
import { checkContextForm } from './create.context';
import { readMemberEmail } from '../fields';

export type WaitMode = 'off' | 'callback' | 'poll';

function readHeaders(additional: IDataObject): Record<string, string> {
	const rows = (additional.callbackHeaders as IDataObject | undefined)?.header ?? [];
	const pairs = (rows as IDataObject[]).map((row) => [
		String(row.name ?? '').trim(),
		String(row.value ?? ''),
	]);
	return Object.fromEntries(pairs.filter(([name]) => name !== ''));
}

/**
 * Same execution + node + item → same key: a repeat of this step returns the first job. A tool call
 * gets its own: an agent's turn makes many calls in one execution, and MCP calls have no execution ID.
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
	const mode = String(options.requestIdMode ?? 'derived');
	if (mode === 'none') return undefined;
	if (mode === 'custom') return check.required('Options → Request ID Value', options.requestId);
	return derivedRequestId(ctx, itemIndex);
}

/** With the derived request_id, a job that "already existed" after a lost answer is this call's. */
export function ownsRequestId(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return (readOptions(ctx, itemIndex).requestIdMode ?? 'derived') === 'derived';
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

/** The request body (callback headers included), checked before anything is sent. */
export function buildBody(ctx: IExecuteFunctions, itemIndex: number, mode: WaitMode): IDataObject {
	const check = validator(ctx, itemIndex);
	const userEmail = readMemberEmail(ctx, itemIndex);
	const prompt = check.maxLength(
		'Prompt',
		check.required('Prompt', ctx.getNodeParameter('prompt', itemIndex, '')),
		PROMPT_MAX,
	);
	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = { user_email: userEmail, prompt };
	const context = check.text('Context', additional.context);
	if (context.trim() !== '') body.context = check.maxLength('Context', context, CONTEXT_MAX);
	checkContextForm(ctx, itemIndex);
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
					description: `${itemRef(itemIndex)}: "Until Callback" sends this execution's own resume URL. Remove the Callback URL or choose another "Wait for Completion". No request was sent.`,
				},
			);
		}
		// Per job when it points at a Job Trigger, so a load balancer can route its repeats by URI.
		body.callback_url = callbackUrlForJob(
			check.webUrl('Callback URL', callbackUrl),
			requestId ?? randomUUID(),
		);
	}
	const headers = readHeaders(additional);
	if (Object.keys(headers).length > 0) body.callback_headers = headers;
	return body;
}

/** A tool's default is Off, as its variant of the field says. */
export function readMode(ctx: IExecuteFunctions, itemIndex: number): WaitMode {
	const fallback: WaitMode = isToolContext(ctx) ? 'off' : 'poll';
	return ctx.getNodeParameter('waitForCompletion', itemIndex, fallback) as WaitMode;
}

/** The poll schedule and time limit, checked. */
export function pollSettings(ctx: IExecuteFunctions, itemIndex: number): PollSettings {
	const options = readOptions(ctx, itemIndex);
	const minutes = validator(ctx, itemIndex).intRange(
		'Options → Time Limit (Minutes)',
		options.timeLimitMinutes ?? DEFAULT_TIME_LIMIT_MINUTES,
		1,
		MAX_TIME_LIMIT_MINUTES,
	);
	const first = options.firstPollSeconds;
	return {
		firstDelayMs: (typeof first === 'number' ? first : DEFAULT_FIRST_POLL_SECONDS) * 1000,
		timeLimitMs: minutes * 60_000,
		cancelOnTimeout: options.cancelOnTimeout === true,
		itemIndex,
	};
}
