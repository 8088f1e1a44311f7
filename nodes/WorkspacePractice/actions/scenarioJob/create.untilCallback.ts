import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { CALLBACK_SECRET_HEADER } from '../../../shared/scenarioJob/callback';
import { isToolContext } from '../../../shared/toolContext';
import { callbackSecret } from '../../../shared/transport';

/** n8n cannot pause a tool call for a webhook (it would fail after the job was created). */
export function refuseCallbackAsTool(ctx: IExecuteFunctions, itemIndex: number): void {
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

/** Refused as a tool call and for several items (n8n resumes an execution once). */
export function refuseCallback(ctx: IExecuteFunctions, itemIndex: number): void {
	if (isToolContext(ctx)) refuseCallbackAsTool(ctx, itemIndex);
	const count = ctx.getInputData().length;
	if (count > 1) {
		throw new NodeOperationError(ctx.getNode(), 'Until Callback waits for one job per execution', {
			itemIndex,
			description: `This node got ${count} items. Choose "By Polling" (it waits on all items' jobs together), use the Job Trigger in a second workflow, or put a Loop Over Items node (batch size 1) in front of it. No request was sent.`,
		});
	}
}

/** This execution's resume URL as the job's callback_url, and the secret header the webhook checks. */
export async function addCallback(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<void> {
	// The resume URL as n8n gives it, query string (the signature of newer n8n) intact.
	body.callback_url = String(ctx.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex));
	body.callback_headers = {
		...(body.callback_headers as Record<string, string> | undefined),
		[CALLBACK_SECRET_HEADER]: await callbackSecret(ctx, itemIndex),
	};
}

/**
 * Pauses until the callback reaches callback.webhook.ts. Past the time limit n8n passes on the node's
 * input items without running it again, so they are replaced by an error item naming the job (the
 * spec promises a callback only for completed jobs).
 */
export async function waitForCallback(
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
