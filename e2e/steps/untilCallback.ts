/**
 * Scenario Job → Create in "Until Callback" mode: the execution waits in n8n (persisted, not held in
 * memory) until the simulator posts to the resume URL, then ends with the finished job.
 */
import type { Execution } from '../../scripts/n8n/api';
import { requireCredential, uniquePath, type SuiteContext } from '../context';
import { expect, expectEqual, waitFor } from '../harness';
import { actionNode, chain, webhookNode } from '../../scripts/n8n/workflows';

function nodeOutput(execution: Execution, node: string): Array<Record<string, unknown>> {
	const run = execution.data?.resultData.runData[node]?.at(-1);
	return (run?.data?.main?.[0] ?? []).map((item) => item.json);
}

export async function untilCallbackSteps(ctx: SuiteContext): Promise<void> {
	const { api, sim, report, fx } = ctx;
	let workflowId = '';
	let jobId = '';
	let executionId = '';

	const ready = await report.step(
		'wait: Until Callback puts the execution to wait with a resume URL',
		async () => {
			const credential = requireCredential(ctx);
			const path = uniquePath('until-callback');
			const trigger = webhookNode(path);
			// Answer the caller at once: the execution goes on (and waits) after the HTTP call returns.
			(trigger.parameters as Record<string, unknown>).responseMode = 'onReceived';
			const create = actionNode(
				'Create Scenario',
				{
					resource: 'scenarioJob',
					operation: 'create',
					userEmail: fx.apiUser.email,
					prompt: 'Objection handling drill: the buyer says the price is too high',
					waitForCompletion: 'callback',
				},
				credential,
			);
			const workflow = await api.createWorkflow(chain('e2e Until Callback', [trigger, create]));
			workflowId = workflow.id;
			await api.activate(workflowId);
			// Jobs made from now on stay processing until the step finishes them: the wait is observable.
			sim.control.setJobTimings({ queuedMs: 0, processingMs: 3_600_000 });
			sim.control.clearRequests();
			const res = await api.callWebhook(path);
			expectEqual(res.status, 200, 'webhook answer');

			// The job's callback URL names the execution; n8n must hold that execution as waiting.
			const sent = await waitFor(
				'the job creation at the simulator',
				async () => sim.control.requests({ method: 'POST', path: '/scenario-studio/jobs' })[0],
			);
			const body = sent.body as {
				callback_url?: string;
				callback_headers?: Record<string, string>;
			};
			const callbackUrl = body.callback_url ?? '';
			const match = /\/webhook-waiting\/([^/?]+)/.exec(callbackUrl);
			expect(match, `callback_url ${callbackUrl} is not a resume URL of this n8n`);
			expect(
				callbackUrl.startsWith(ctx.n8n.webhookBaseUrl),
				`callback_url ${callbackUrl} does not point at this n8n (its webhook process in queue mode)`,
			);
			executionId = match[1];
			if (ctx.major === 2)
				expect(
					/[?&]signature=/.test(callbackUrl),
					`n8n 2.x signs resume URLs; ${callbackUrl} lost its query string`,
				);
			expect(
				body.callback_headers && Object.keys(body.callback_headers).length > 0,
				'callback_headers carry a secret',
			);
			const waiting = await waitFor(`execution ${executionId} to be waiting`, async () => {
				const execution = await api.execution(executionId);
				return execution.status === 'waiting' ? execution : undefined;
			});
			expectEqual(String(waiting.workflowId), workflowId, 'workflow of the waiting execution');
			const jobs = [...sim.control.store.jobs.keys()];
			jobId = jobs[jobs.length - 1];
			return `execution ${executionId} waiting; callback_url ${callbackUrl.replace(/signature=[^&]+/, 'signature=…')}`;
		},
	);

	if (ready) {
		await report.step(
			'wait: the callback resumes it, with the finished scenario as output',
			async () => {
				sim.control.finishJob(jobId);
				await sim.control.waitForCallbacks();
				const delivery = sim.control.callbacks().find((d) => d.jobId === jobId);
				expect(delivery, 'the simulator sent no callback');
				expect(
					delivery.status === 200,
					`n8n answered the callback with ${String(delivery.status)} ${delivery.error ?? ''}`,
				);
				const done = await waitFor('the execution to finish', async () => {
					const execution = await api.execution(executionId);
					return execution.finished ||
						execution.status === 'success' ||
						execution.status === 'error'
						? execution
						: undefined;
				});
				expectEqual(done.status, 'success', 'execution status');
				const [job] = nodeOutput(done, 'Create Scenario');
				expect(job, 'the node has no output item');
				expectEqual(job.status, 'completed', 'job status in the output');
				const scenario = job.scenario as { id?: string; name?: string } | null;
				expect(scenario?.id, 'the output carries the scenario');
				const gets = sim.control.requests({
					method: 'GET',
					path: `/scenario-studio/jobs/${jobId}`,
				}).length;
				return `job ${jobId} → scenario "${String(scenario.name)}"; ${gets} confirming GET`;
			},
		);
	}
	sim.control.setJobTimings({ queuedMs: 300, processingMs: 1500 });
	if (workflowId) {
		await api.deactivate(workflowId).catch(() => undefined);
	}
}
