/**
 * The job trigger in a real n8n: the simulator delivers job callbacks to the trigger's production URL.
 * Right secret: one execution; wrong secret: 401 and none; the same callback again: still one; repeats
 * sent while the first is being handled: still one.
 */
import { randomUUID } from 'node:crypto';

import { requireCredential, type SuiteContext } from '../context';
import { expect, expectEqual, sleepMs, waitFor } from '../harness';
import { JOB_TRIGGER_TYPE } from '../../scripts/n8n/workflows';

const SECRET_HEADER = 'x-e2e-secret';
const SECRET = `e2e-${randomUUID()}`;
const WEBHOOK_PATH = 'workspace-practice-job';

export async function jobTriggerSteps(ctx: SuiteContext): Promise<void> {
	const { api, sim, report, fx } = ctx;
	if (!ctx.packageNodeTypes.includes(JOB_TRIGGER_TYPE)) {
		report.skip('job trigger', `${JOB_TRIGGER_TYPE} is not in the package yet`);
		return;
	}
	let workflowId = '';
	let url = '';
	const createJob = async (headers: Record<string, string>): Promise<string> => {
		const res = await fetch(`${sim.baseUrl}/scenario-studio/jobs`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				user_email: fx.apiUser.email,
				prompt: 'Cold call to a hospital procurement lead',
				callback_url: url,
				callback_headers: headers,
			}),
		});
		const job = (await res.json()) as { id: string };
		return job.id;
	};
	/** A workflow whose only node is the Job Trigger at `typeVersion`. */
	const createTriggerWorkflow = async (
		name: string,
		typeVersion: number,
		node: { parameters: Record<string, unknown>; credentials: Record<string, unknown> },
	) => {
		const webhookId = randomUUID();
		const workflow = await api.createWorkflow({
			name,
			nodes: [
				{
					id: randomUUID(),
					name: 'Job Trigger',
					type: JOB_TRIGGER_TYPE,
					typeVersion,
					position: [0, 0],
					webhookId,
					...node,
				},
			],
			connections: {},
		});
		return { webhookId, workflow };
	};
	const finish = async (jobId: string) => {
		sim.control.finishJob(jobId);
		await sim.control.waitForCallbacks();
		const deliveries = sim.control.callbacks().filter((d) => d.jobId === jobId);
		return deliveries[deliveries.length - 1];
	};

	const ready = await report.step('job trigger: activated with a secret', async () => {
		const credential = requireCredential(ctx);
		const secret = await api.createCredential(
			'Job callback secret (e2e)',
			'workspacePracticeWebhookSecretApi',
			{
				headerName: SECRET_HEADER,
				secret: SECRET,
			},
		);
		const { webhookId, workflow } = await createTriggerWorkflow('e2e job callbacks', 2, {
			parameters: { authentication: 'headerSecret', confirmWithApi: true },
			credentials: {
				workspacePracticeApi: credential,
				workspacePracticeWebhookSecretApi: { id: secret.id, name: secret.name },
			},
		});
		workflowId = workflow.id;
		await api.activate(workflowId);
		// n8n serves a trigger's webhook at /webhook/<webhookId>/<the description's path>.
		url = `${ctx.n8n.webhookBaseUrl}/webhook/${webhookId}/${WEBHOOK_PATH}`;
		// n8n registers webhooks after activation returns: a delivery without the secret both waits
		// for the registration (404 until then) and shows a missing secret is refused.
		const probe = await api.callWebhook(`${webhookId}/${WEBHOOK_PATH}`, {
			json: { id: 'no-such-job' },
		});
		expectEqual(probe.status, 401, 'answer to a delivery without the secret');
		sim.control.setJobTimings({ queuedMs: 0, processingMs: 3_600_000 });
		return `${url} (no secret → 401)`;
	});
	if (!ready) return;

	let rightJob = '';
	await report.step('job trigger: right secret → one execution with the finished job', async () => {
		rightJob = await createJob({ [SECRET_HEADER]: SECRET });
		const delivery = await finish(rightJob);
		expect(
			delivery?.status === 200,
			`n8n answered the callback with ${String(delivery?.status)} ${delivery?.error ?? ''}`,
		);
		const executions = await waitFor('one execution', async () => {
			const list = await api.executions(workflowId);
			return list.length >= 1 && list.every((e) => e.finished || e.status === 'success')
				? list
				: undefined;
		});
		expectEqual(executions.length, 1, 'executions');
		const run = executions[0].data?.resultData.runData['Job Trigger']?.[0];
		const job = run?.data?.main?.[0]?.[0]?.json as
			| { id?: string; status?: string; scenario?: { id?: string } }
			| undefined;
		expectEqual(job?.id, rightJob, 'job id in the output');
		expectEqual(job?.status, 'completed', 'job status in the output');
		expect(job?.scenario?.id, 'the output carries the scenario');
		return `job ${rightJob} completed → 1 execution`;
	});

	await report.step('job trigger: the same callback again → still one execution', async () => {
		const again = await sim.control.redeliverCallback(rightJob);
		expect(again.status === 200, `n8n answered the repeat with ${String(again.status)}`);
		await sleepMs(2000);
		expectEqual(
			(await api.executions(workflowId)).length,
			1,
			'executions after a duplicate delivery',
		);
		return `repeat answered ${again.status}, no second execution`;
	});

	await report.step('job trigger: wrong secret → 401 and no execution', async () => {
		const wrongJob = await createJob({ [SECRET_HEADER]: 'not-the-secret' });
		const delivery = await finish(wrongJob);
		expectEqual(delivery?.status, 401, 'answer to a wrong secret');
		await sleepMs(2000);
		expectEqual(
			(await api.executions(workflowId)).length,
			1,
			'executions after a rejected delivery',
		);
		return '401, still 1 execution';
	});

	await report.step(
		'job trigger: repeats sent while the first delivery is handled → one execution',
		async () => {
			const before = (await api.executions(workflowId)).length;
			const jobId = await createJob({ [SECRET_HEADER]: SECRET });
			// finishJob sends the callback without waiting for it: the repeats go out at the same time.
			sim.control.finishJob(jobId);
			const repeats = await Promise.all(
				Array.from({ length: 4 }, () => sim.control.redeliverCallback(jobId)),
			);
			await sim.control.waitForCallbacks();
			expect(
				repeats.every((d) => d.status === 200),
				`n8n answered the repeats with ${repeats.map((d) => d.status).join(', ')}`,
			);
			await waitFor('the execution', async () =>
				(await api.executions(workflowId)).length > before ? true : undefined,
			);
			await sleepMs(2000);
			expectEqual(
				(await api.executions(workflowId)).length,
				before + 1,
				'executions after 5 deliveries at once',
			);
			return '5 deliveries at once → 1 execution';
		},
	);

	sim.control.setJobTimings({ queuedMs: 300, processingMs: 1500 });
	await api.deactivate(workflowId).catch(() => undefined);
}
