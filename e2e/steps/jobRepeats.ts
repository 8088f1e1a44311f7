/**
 * Job callbacks sent the way a retrying service sends them, counted per job from n8n's executions:
 * 50 jobs with pairs on two sockets at once, triples 50 ms apart, repeats after the first answer,
 * deliveries overlapping across jobs, then n8n restarted and every callback repeated. In queue mode the
 * webhooks are two webhook processes behind the hash-routing proxy the docs recommend; repeats are also
 * sent straight to each process, past the proxy. Exactly one execution per job; wrong secrets none; no
 * 5xx. Then, in queue mode, the realistic profile: 100 callbacks a minute with repeats.
 * Runs after every other step: the restart would cut steps that run alongside.
 */
import { randomUUID } from 'node:crypto';

import { callbackUrlForJob } from '../../nodes/shared/scenarioJob/callback';
import { requireCredential, type SuiteContext } from '../context';
import { expect, sleepMs, waitFor } from '../harness';
import { JOB_TRIGGER_TYPE } from '../../scripts/n8n/workflows';

const SECRET_HEADER = 'x-e2e-secret';
const SECRET = `e2e-repeats-${randomUUID()}`;
const WEBHOOK_PATH = 'workspace-practice-job';

export async function jobRepeatSteps(ctx: SuiteContext): Promise<void> {
	const { api, sim, report, fx, n8n } = ctx;
	if (!ctx.packageNodeTypes.includes(JOB_TRIGGER_TYPE)) return;
	let workflowId = '';
	let webhookId = '';
	/** Answers to the copies posted straight to a webhook process (0: no answer). */
	const direct: number[] = [];
	/** Answers the simulator recorded for these jobs' callbacks, from delivery `from` on. */
	const answers = (jobs: string[], from = 0) =>
		sim.control
			.callbacks()
			.slice(from)
			.filter((d) => jobs.includes(d.jobId))
			.map((d) => d.status ?? 0);
	const runTag = Date.now().toString(36);

	const triggerUrl = () => `${n8n.webhookBaseUrl}/webhook/${webhookId}/${WEBHOOK_PATH}`;
	/** A job whose callback URL is made per job as Scenario Job → Create makes it. */
	const createJob = async (secret: string, requestId: string): Promise<string> => {
		const res = await fetch(`${sim.baseUrl}/scenario-studio/jobs`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				user_email: fx.apiUser.email,
				prompt: 'Renewal call with a hesitant CFO',
				request_id: requestId,
				callback_url: callbackUrlForJob(triggerUrl(), requestId),
				callback_headers: { [SECRET_HEADER]: secret },
			}),
		});
		return ((await res.json()) as { id: string }).id;
	};
	/** The first callback of a finished job, answered. */
	const finish = async (jobId: string): Promise<void> => {
		sim.control.finishJob(jobId);
		await sim.control.waitForCallbacks();
	};
	const repeat = async (jobId: string): Promise<void> => {
		await sim.control.redeliverCallback(jobId);
	};
	/** A repeat posted straight to each webhook process (queue mode), past the proxy's routing. */
	const repeatToEveryProcess = async (jobId: string, requestId: string) => {
		const path = new URL(callbackUrlForJob(triggerUrl(), requestId));
		for (const port of n8n.webhookPorts) {
			const res = await fetch(`http://127.0.0.1:${port}${path.pathname}${path.search}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', [SECRET_HEADER]: SECRET },
				body: JSON.stringify({ id: jobId, status: 'completed' }),
			});
			direct.push(res.status);
			await res.arrayBuffer();
		}
	};
	/** Executions per job ID, from n8n's executions API. */
	const perJob = async (): Promise<Map<string, number>> => {
		const counts = new Map<string, number>();
		for (const execution of await api.executions(workflowId)) {
			const run = execution.data?.resultData.runData['Job Trigger']?.[0];
			const id = String(run?.data?.main?.[0]?.[0]?.json?.id ?? '?');
			counts.set(id, (counts.get(id) ?? 0) + 1);
		}
		return counts;
	};
	/** Waits until `n` executions finished and no more come for 3 s. */
	const settle = async (n: number): Promise<Map<string, number>> => {
		await waitFor(`${n} executions`, async () => {
			const list = await api.executions(workflowId);
			return list.length >= n && list.every((e) => e.finished || e.status === 'success')
				? true
				: undefined;
		});
		await sleepMs(3000);
		return await perJob();
	};
	/** Jobs started more than once or never, named by kind (pair, triple, seq, over, rate). */
	const describe = (counts: Map<string, number>, jobs: string[]) => {
		const kind = (id: string) => requestIds.get(id)?.split('-')[2] ?? '?';
		const twiceIds = jobs.filter((id) => (counts.get(id) ?? 0) > 1);
		const noneIds = jobs.filter((id) => !counts.has(id));
		const total = [...counts.values()].reduce((a, b) => a + b, 0);
		const detail = [
			...twiceIds.map((id) => `${kind(id)} ${id} ×${counts.get(id)}`),
			...noneIds.map((id) => `${kind(id)} ${id} ×0`),
		].join(', ');
		return { twice: twiceIds.length, none: noneIds.length, total, detail };
	};
	/** Job IDs the trigger's stored static data remembers (what survives a restart). */
	const storedJobs = async (): Promise<Set<string>> => {
		const res = await api.raw(`/api/v1/workflows/${workflowId}`, { method: 'GET' });
		const data = (res.body as { staticData?: Record<string, { recentDeliveries?: object }> })
			?.staticData;
		const keys = Object.values(data ?? {}).flatMap((n) => Object.keys(n?.recentDeliveries ?? {}));
		return new Set(keys.map((k) => k.split(':')[0]));
	};
	/** Every answer that is not `expected`, with the simulator's error text. */
	const badAnswers = (jobs: string[], from: number, expected: number) =>
		sim.control
			.callbacks()
			.slice(from)
			.filter((d) => jobs.includes(d.jobId) && d.status !== expected)
			.map((d) => `${d.status ?? 'none'}${d.error ? ` (${d.error})` : ''} #${d.attempt}`);
	/** n8n serves the webhook again (after activation or a restart): the probe is refused, not 404. */
	const waitServed = async () =>
		await waitFor('the webhook served', async () => {
			for (const port of n8n.webhookPorts.length ? n8n.webhookPorts : [n8n.port]) {
				const res = await fetch(`http://127.0.0.1:${port}/webhook/${webhookId}/${WEBHOOK_PATH}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				}).catch(() => undefined);
				if (res?.status !== 401) return undefined;
			}
			return true;
		});

	const ready = await report.step('job repeats: trigger published with a secret', async () => {
		const secret = await api.createCredential(
			'Job callback secret (e2e repeats)',
			'workspacePracticeWebhookSecretApi',
			{ headerName: SECRET_HEADER, secret: SECRET },
		);
		webhookId = randomUUID();
		const workflow = await api.createWorkflow({
			name: 'e2e job callback repeats',
			nodes: [
				{
					id: randomUUID(),
					name: 'Job Trigger',
					type: JOB_TRIGGER_TYPE,
					typeVersion: 2,
					position: [0, 0],
					webhookId,
					parameters: { authentication: 'headerSecret', confirmWithApi: true },
					credentials: {
						workspacePracticeApi: requireCredential(ctx),
						workspacePracticeWebhookSecretApi: { id: secret.id, name: secret.name },
					},
				},
			],
			connections: {},
		});
		workflowId = workflow.id;
		await api.activate(workflowId);
		await waitServed();
		sim.control.setJobTimings({ queuedMs: 0, processingMs: 3_600_000 });
		const behind = n8n.proxy
			? `${n8n.webhookPorts.length} webhook processes behind the hash proxy ${n8n.webhookBaseUrl}`
			: n8n.webhookBaseUrl;
		return `${triggerUrl()} (${behind})`;
	});
	if (!ready) return;

	const ids: string[] = [];
	const requestIds = new Map<string, string>();
	const newJob = async (kind: string, i: number) => {
		const requestId = `e2e-${runTag}-${kind}-${i}`;
		const id = await createJob(SECRET, requestId);
		ids.push(id);
		requestIds.set(id, requestId);
		return id;
	};

	await report.step(
		'job repeats: 50 jobs (15 pairs, 10 triples, 10 repeats after the answer, 15 overlapping) → 50 executions',
		async () => {
			const started = Date.now();
			const wrong: string[] = [];
			for (let i = 0; i < 5; i++)
				wrong.push(await createJob('not-the-secret', `e2e-${runTag}-w-${i}`));
			const pairs = await Promise.all(Array.from({ length: 15 }, (_, i) => newJob('pair', i)));
			const triples = await Promise.all(Array.from({ length: 10 }, (_, i) => newJob('triple', i)));
			const sequential = await Promise.all(Array.from({ length: 10 }, (_, i) => newJob('seq', i)));
			const overlap = await Promise.all(Array.from({ length: 15 }, (_, i) => newJob('over', i)));
			const flows: Array<Promise<void>> = [];
			// Pairs: the first callback and a copy on a second socket in the same tick, 200 ms between jobs.
			for (const id of pairs) {
				sim.control.finishJob(id);
				flows.push(repeat(id));
				await sleepMs(200);
			}
			// Triples: the callback, then two copies 50 ms apart.
			for (const id of triples) {
				sim.control.finishJob(id);
				flows.push(
					(async () => {
						await sleepMs(50);
						await repeat(id);
						await sleepMs(50);
						await repeat(id);
					})(),
				);
				await sleepMs(200);
			}
			// Wrong secrets among them.
			for (const id of wrong) sim.control.finishJob(id);
			await Promise.all(flows);
			await sim.control.waitForCallbacks();
			// Sequential: a repeat once the first was answered.
			for (const id of sequential) {
				await finish(id);
				await repeat(id);
			}
			// Overlapping across jobs: 15 jobs 100 ms apart, each repeated at once.
			const overlapping: Array<Promise<void>> = [];
			for (const id of overlap) {
				sim.control.finishJob(id);
				overlapping.push(repeat(id));
				await sleepMs(100);
			}
			await Promise.all(overlapping);
			await sim.control.waitForCallbacks();
			const counts = await settle(50);
			const statuses = answers(ids);
			const { twice, none, total, detail } = describe(counts, ids);
			const stored = await storedJobs();
			const problems = [
				...badAnswers(wrong, 0, 401).map((a) => `wrong secret answered ${a}`),
				...(wrong.some((id) => counts.has(id))
					? ['a wrong-secret callback started an execution']
					: []),
				...badAnswers(ids, 0, 200).map((a) => `answered ${a}`),
				...(twice || none || total !== 50 ? [`${total} executions for 50 jobs: ${detail}`] : []),
			];
			const unsaved = ids.filter((id) => !stored.has(id)).length;
			// Queue mode, measured: a copy of each sequential job's callback straight to each webhook process,
			// past the routing (what a load balancer without the URI hash would do).
			let bypass = '';
			if (n8n.webhookPorts.length > 1) {
				for (const id of sequential) await repeatToEveryProcess(id, requestIds.get(id) ?? '');
				await sleepMs(3000);
				const extra = describe(await perJob(), ids);
				bypass = `; past the routing, ${direct.length} copies (${direct.filter((st) => st !== 200).length} not 200) started ${extra.total - total} more`;
			}
			expect(problems.length === 0, problems.join('; '));
			return `${statuses.length} deliveries in ${((Date.now() - started) / 1000).toFixed(0)} s, all 200; 5 wrong secrets 401; executions: 50 for 50 jobs; static data then missed ${unsaved}${bypass}`;
		},
	);

	await report.step(
		'job repeats: n8n restarted, every callback repeated → no job started again',
		async () => {
			const storedBefore = await storedJobs();
			const baseline = await perJob();
			const restartedAt = Date.now();
			await n8n.restart();
			await waitServed();
			const restartS = ((Date.now() - restartedAt) / 1000).toFixed(0);
			const before = sim.control.callbacks().length;
			// In sequence over the proxy (as the service would retry), then a burst of 10 at once.
			for (const id of ids.slice(0, 40)) await repeat(id);
			await Promise.all(ids.slice(40).map((id) => repeat(id)));
			await sleepMs(4000);
			const counts = await perJob();
			const statuses = answers(ids, before);
			const problems = [
				...badAnswers(ids, before, 200).map((a) => `answered ${a}`),
				...ids
					.filter((id) => (counts.get(id) ?? 0) !== (baseline.get(id) ?? 0))
					.map((id) => `${requestIds.get(id)} started again`),
			];
			const missing = ids.filter((id) => !storedBefore.has(id)).length;
			expect(problems.length === 0, `after the restart: ${problems.join('; ')}`);
			return `restart ${restartS} s; static data held ${50 - missing} of 50 jobs; ${statuses.length} repeats answered 200, none started again`;
		},
	);

	if (n8n.webhookPorts.length > 1) {
		await report.step(
			'job repeats: 100 callbacks a minute with repeats (queue, two webhook processes) → no 5xx, one execution per job',
			async () => {
				const before = await perJob();
				const jobs = await Promise.all(Array.from({ length: 20 }, (_, i) => newJob('rate', i)));
				const flows: Array<Promise<void>> = [];
				// 20 jobs: the callback plus 2 repeats (at 3 s and 9 s): 60 callbacks in ~36 s.
				const started = Date.now();
				for (const id of jobs) {
					sim.control.finishJob(id);
					flows.push(
						(async () => {
							await sleepMs(3000);
							await repeat(id);
							await sleepMs(6000);
							await repeat(id);
						})(),
					);
					await sleepMs(1800);
				}
				await Promise.all(flows);
				await sim.control.waitForCallbacks();
				const seconds = (Date.now() - started) / 1000;
				const counts = await settle([...before.values()].reduce((a, b) => a + b, 0) + jobs.length);
				const { twice, none, detail } = describe(counts, jobs);
				const bad = badAnswers(jobs, 0, 200);
				const rate = ((jobs.length * 3) / seconds) * 60;
				expect(bad.length === 0, `answers other than 200: ${bad.join(', ')}`);
				expect(twice === 0 && none === 0, `not one execution per job: ${detail}`);
				return `${jobs.length * 3} callbacks in ${seconds.toFixed(0)} s (${rate.toFixed(0)}/min), all 200, proxy 502s: ${n8n.proxy?.badGateway ?? 0}; routed ${n8n.proxy?.routed.join(' + ')}; 1 execution per job`;
			},
		);
	}

	sim.control.setJobTimings({ queuedMs: 300, processingMs: 1500 });
	await api.deactivate(workflowId).catch(() => undefined);
}
