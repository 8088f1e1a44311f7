/**
 * Load in queue mode (PostgreSQL + Redis, main + webhook process + 2 workers): job callbacks delivered
 * to a published Job Trigger at a steady pace, with duplicates and wrong secrets mixed in; then many
 * By Polling waits at once.
 */
import { randomUUID } from 'node:crypto';

import type { Execution, N8nApi, WorkflowJson } from '../../scripts/n8n/api';
import { median, round } from '../stats';
import type { N8nBenchConfig } from './config';
import type { BenchN8n } from './instance';
import { cpuSeconds, errorOf, load, threadCpuDelta, threadCpuSeconds } from './measure';
import { monotonicUs, noteProfileWindow } from './profileSummary';
import { startSim, type SimChild } from './sim';
import {
	jobTriggerWorkflow,
	jobWaitWorkflow,
	webhookNodeWorkflow,
	type Credentials,
} from './workflows';

async function credentialsFor(api: N8nApi, sim: SimChild): Promise<Credentials> {
	const node = await api.createCredential('Workspace Practice (queue)', 'workspacePracticeApi', {
		baseUrl: sim.baseUrl,
		apiKey: sim.apiKey,
	});
	return {
		node: { id: node.id, name: node.name },
		header: { id: '', name: '' },
		baseUrl: sim.baseUrl,
	};
}

/** Every execution of a workflow, with data (the public API pages with a cursor). */
async function allExecutions(api: N8nApi, workflowId: string): Promise<Execution[]> {
	const out: Execution[] = [];
	let cursor: string | undefined;
	do {
		const qs = new URLSearchParams({ workflowId, includeData: 'true', limit: '100' });
		if (cursor) qs.set('cursor', cursor);
		const body = (await api.raw(`/api/v1/executions?${qs.toString()}`)).body as {
			data: Execution[];
			nextCursor?: string | null;
		};
		out.push(...body.data);
		cursor = body.nextCursor ?? undefined;
	} while (cursor);
	return out;
}

function percentile(values: number[], p: number): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function memberEmail(sim: SimChild): Promise<string> {
	const answer = await fetch(`${sim.baseUrl}/workspace/members?page_size=1`, {
		headers: { Authorization: `Bearer ${sim.apiKey}` },
	});
	return ((await answer.json()) as { data: Array<{ user: { email: string } }> }).data[0].user.email;
}

async function createJob(
	sim: SimChild,
	email: string,
	callbackUrl: string,
	headers: Record<string, string>,
): Promise<string> {
	const res = await fetch(`${sim.baseUrl}/scenario-studio/jobs`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({
			user_email: email,
			prompt: `Bench callback ${randomUUID()}`,
			callback_url: callbackUrl,
			callback_headers: headers,
		}),
	});
	if (res.status !== 201 && res.status !== 200)
		throw new Error(`job create answered ${res.status}`);
	return ((await res.json()) as { id: string }).id;
}

export interface CallbackFigures {
	target?: CallbackTarget;
	profile?: CallbackProfile;
	delivered: number;
	duplicatesDelivered: number;
	wrongSecretDelivered: number;
	overSeconds: number;
	/** Jobs (of the right-secret ones) that started at least one execution. */
	started: number;
	lost: number;
	/** Executions beyond the first for one job. */
	duplicated: number;
	/** Of those, for jobs whose repeat was sent while the first delivery was still being handled. */
	concurrentDuplicated?: number;
	/** Wrong-secret deliveries n8n refused (401), and executions they started (goal 0). */
	rejected: number;
	wrongSecretExecutions: number;
	failedExecutions: number;
	/** From the delivery (the simulator's send time) to the execution's end. */
	medianMs: number;
	p99Ms: number;
	maxMs: number;
	/**
	 * Where the time goes (ms): delivery → execution started (the webhook process: secret, duplicate
	 * guard, the confirming GET, saving the execution, Redis, a worker picking it up), and started →
	 * stopped (the worker running it). The public API gives no creation time to split the first.
	 */
	phases: { toStartMs: number; runMs: number; p99ToStartMs: number; p99RunMs: number };
	/** CPU seconds each n8n process spent from the first delivery until the executions settled. */
	cpuSeconds: Record<string, number>;
	/** n8n settings that differ from its defaults in this measurement (a diagnosis run). */
	n8nEnv?: Record<string, string>;
	loadAverage: number[];
}

interface Timed {
	startedAt?: string;
	stoppedAt?: string;
}

const at = (e: Execution, key: keyof Timed): number =>
	Date.parse(String((e as unknown as Timed)[key]));

/** A schedule of callbacks: how many, over how long, with how many repeats and wrong secrets. */
export interface CallbackProfile {
	callbacks: number;
	/** Repeats of a job delivered shortly before (ten deliveries later). */
	duplicates: number;
	/** Repeats sent right after the first delivery, while it is still being handled. */
	concurrentDuplicates: number;
	wrongSecret: number;
	overMs: number;
}

/**
 * Who receives the callbacks: this package's Job Trigger (header secret, confirmed with the API, its
 * duplicate guard), or n8n's own Webhook node with Header Auth (no confirmation, no duplicate guard:
 * it has neither), each as the only node of its workflow; or, as a diagnosis, the Job Trigger bare
 * (`jobTriggerBare`: Authentication None, Confirm With API off, duplicate guard on). The bare one reads
 * no credential and sends no request, so what it costs is the package's own code and n8n's webhook
 * phase (its isolate included); by design it also starts an execution for every wrong-secret
 * delivery, having no secret to check.
 */
export type CallbackTarget = 'jobTrigger' | 'webhookNode' | 'jobTriggerBare';

/** The job a started execution was for, read from its trigger's output. */
function jobOf(e: Execution, target: CallbackTarget): string | undefined {
	const runData = e.data?.resultData.runData;
	const first = (name: string) =>
		runData?.[name]?.[0]?.data?.main?.[0]?.[0]?.json as Record<string, unknown> | undefined;
	if (target !== 'webhookNode') return first('Job Trigger')?.id as string | undefined;
	return (first('Webhook')?.body as { id?: string } | undefined)?.id;
}

/** `label` names the measured window for `BENCH_N8N_CPU_PROF` (profileSummary.ts). */
export async function benchCallbacks(
	bench: BenchN8n,
	profile: CallbackProfile,
	target: CallbackTarget = 'jobTrigger',
	label: string = target,
): Promise<CallbackFigures> {
	const { callbacks, duplicates, concurrentDuplicates, wrongSecret, overMs } = profile;
	// Jobs stay processing until the bench finishes each one. Limits off: 500 confirmations in a minute
	// are over the workspace's 60 a minute (and 500 jobs cannot be created in one at 10 a minute).
	const sim = await startSim({ jobTimings: { queuedMs: 0, processingMs: 24 * 3_600_000 } });
	try {
		const email = await memberEmail(sim);
		const creds = await credentialsFor(bench.api, sim);
		const secretValue = `bench-${randomUUID()}`;
		let workflow: WorkflowJson;
		let webhookPath: string;
		if (target === 'jobTrigger') {
			const secret = await bench.api.createCredential(
				'Job callback secret (bench)',
				'workspacePracticeWebhookSecretApi',
				{ headerName: 'x-bench-secret', secret: secretValue },
			);
			const trigger = jobTriggerWorkflow(creds, { id: secret.id, name: secret.name });
			workflow = trigger.workflow;
			webhookPath = `${trigger.webhookId}/workspace-practice-job`;
		} else if (target === 'jobTriggerBare') {
			const trigger = jobTriggerWorkflow(creds);
			workflow = trigger.workflow;
			webhookPath = `${trigger.webhookId}/workspace-practice-job`;
		} else {
			const header = await bench.api.createCredential('Callback header (bench)', 'httpHeaderAuth', {
				name: 'x-bench-secret',
				value: secretValue,
			});
			webhookPath = `callbacks-${randomUUID().slice(0, 8)}`;
			workflow = webhookNodeWorkflow(webhookPath, { id: header.id, name: header.name });
		}
		const { id: workflowId } = await bench.api.createWorkflow(workflow);
		await bench.api.activate(workflowId);
		const url = `${bench.n8n.webhookBaseUrl}/webhook/${webhookPath}`;
		// Registration is asynchronous: wait until a delivery without the secret is refused (401 from
		// the Job Trigger, 403 from the Webhook node's Header Auth); the bare trigger acknowledges a job
		// without a final status (200) and starts nothing.
		const probe = await bench.api.callWebhook(webhookPath, { json: { id: 'no-such-job' } });
		const expected = target === 'jobTriggerBare' ? [200] : [401, 403];
		if (!expected.includes(probe.status))
			throw new Error(`${target} probe answered ${probe.status}`);

		const right: string[] = [];
		for (let i = 0; i < callbacks; i++)
			right.push(await createJob(sim, email, url, { 'x-bench-secret': secretValue }));
		const wrong: string[] = [];
		for (let i = 0; i < wrongSecret; i++)
			wrong.push(await createJob(sim, email, url, { 'x-bench-secret': 'not-the-secret' }));

		// One schedule over `overMs`: every right job once, wrong ones and repeats of delivered jobs mixed in.
		type Event = { kind: 'right' | 'wrong' | 'duplicate' | 'concurrent'; jobId: string };
		const events: Event[] = right.map((jobId) => ({ kind: 'right', jobId }));
		const every = Math.floor(callbacks / Math.max(1, wrongSecret));
		wrong.forEach((jobId, i) =>
			events.splice(Math.min(events.length, (i + 1) * every + i), 0, { kind: 'wrong', jobId }),
		);
		const dupEvery = Math.floor(callbacks / Math.max(1, duplicates));
		for (let i = 0; i < duplicates; i++) {
			// A repeat of a job delivered a while before (it must have been delivered already).
			const target = right[i * dupEvery];
			const firstAt = events.findIndex((e) => e.jobId === target);
			events.splice(Math.min(events.length, firstAt + 10), 0, { kind: 'duplicate', jobId: target });
		}
		const concurrentEvery = Math.floor(callbacks / Math.max(1, concurrentDuplicates));
		const concurrentJobs = new Set<string>();
		for (let i = 0; i < concurrentDuplicates; i++) {
			// Sent together with the first delivery (see below), so both are handled at once.
			const target = right[Math.min(right.length - 1, i * concurrentEvery + 1)];
			const firstAt = events.findIndex((e) => e.jobId === target && e.kind === 'right');
			events[firstAt] = { kind: 'concurrent', jobId: target };
			concurrentJobs.add(target);
		}
		const step = overMs / events.length;
		const processes = bench.n8n.processNames;
		const cpuBefore = processes.map((name) => cpuSeconds(bench.n8n.pid(name) ?? 0));
		const threadsBefore = processes.map((name) => threadCpuSeconds(bench.n8n.pid(name) ?? 0));
		const fromUs = monotonicUs();
		const started = Date.now();
		const pending: Array<Promise<unknown>> = [];
		for (let i = 0; i < events.length; i++) {
			const due = started + i * step;
			const wait = due - Date.now();
			if (wait > 0) await new Promise((r) => setTimeout(r, wait));
			const e = events[i];
			if (e.kind === 'concurrent') {
				// finishJob answers once the first callback is on its way: the repeat follows at once.
				pending.push(sim.finishJob(e.jobId).then(() => sim.redeliverCallback(e.jobId)));
				continue;
			}
			pending.push(
				e.kind === 'duplicate' ? sim.redeliverCallback(e.jobId) : sim.finishJob(e.jobId),
			);
		}
		await Promise.all(pending);
		const overSeconds = round((Date.now() - started) / 1000, 1);
		await sim.waitForCallbacks();
		const deliveries = await sim.callbacks();

		// Executions settle: wait until the count stays put and none is running.
		let executions: Execution[] = [];
		let stableSince = Date.now();
		let lastCount = -1;
		const deadline = Date.now() + 300_000;
		for (;;) {
			executions = await allExecutions(bench.api, workflowId);
			const running = executions.some((e) => e.status === 'running' || e.status === 'new');
			if (executions.length !== lastCount || running) {
				lastCount = executions.length;
				stableSince = Date.now();
			}
			if (Date.now() - stableSince > 10_000 || Date.now() > deadline) break;
			await new Promise((r) => setTimeout(r, 2000));
		}

		const cpu = Object.fromEntries(
			processes.map((name, i) => [
				name,
				round(cpuSeconds(bench.n8n.pid(name) ?? 0) - cpuBefore[i], 1),
			]),
		);
		const toUs = monotonicUs();
		if (process.env.BENCH_N8N_CPU_PROF) {
			// Per thread: a CPU profile sees only the main thread. Threads that ended in the window are
			// in the process's total only: the difference is theirs.
			const threads = Object.fromEntries(
				processes.map((name, i) => {
					const delta = threadCpuDelta(
						threadsBefore[i],
						threadCpuSeconds(bench.n8n.pid(name) ?? 0),
					);
					const listed = Object.values(delta).reduce((a, b) => a + b, 0);
					delta['(threads that ended)'] = round(Math.max(0, cpu[name] - listed), 2);
					return [name, delta];
				}),
			);
			noteProfileWindow({
				label,
				fromUs,
				toUs,
				deliveries: deliveries.length,
				cpuSeconds: cpu,
				threadCpuSeconds: threads,
			});
		}
		const firstDelivery = new Map<string, number>();
		for (const d of deliveries) if (d.attempt === 1) firstDelivery.set(d.jobId, Date.parse(d.at));
		const perJob = new Map<string, Execution[]>();
		for (const e of executions) {
			const key = jobOf(e, target) ?? `(no job: execution ${e.id})`;
			perJob.set(key, [...(perJob.get(key) ?? []), e]);
		}
		const rightSet = new Set(right);
		const wrongSet = new Set(wrong);
		const startedJobs = right.filter((id) => perJob.has(id));
		const firstExecution = (id: string): Execution =>
			[...(perJob.get(id) ?? [])].sort((a, b) => at(a, 'stoppedAt') - at(b, 'stoppedAt'))[0];
		const latencies = startedJobs.map(
			(id) => at(firstExecution(id), 'stoppedAt') - (firstDelivery.get(id) ?? NaN),
		);
		const phase = (from: (id: string) => number, to: (id: string) => number): number[] =>
			startedJobs.map((id) => to(id) - from(id));
		const delivered = (id: string): number => firstDelivery.get(id) ?? NaN;
		const toStart = phase(delivered, (id) => at(firstExecution(id), 'startedAt'));
		const run = phase(
			(id) => at(firstExecution(id), 'startedAt'),
			(id) => at(firstExecution(id), 'stoppedAt'),
		);
		const failed = executions.filter((e) => e.status !== 'success');
		if (failed.length)
			console.log(
				`  ${failed.length} executions did not succeed, e.g. ${errorOf(failed[0]) ?? failed[0].status}`,
			);
		return {
			target,
			profile,
			delivered: deliveries.filter((d) => d.attempt === 1 && rightSet.has(d.jobId)).length,
			duplicatesDelivered: deliveries.filter((d) => d.attempt > 1).length,
			wrongSecretDelivered: deliveries.filter((d) => wrongSet.has(d.jobId)).length,
			overSeconds,
			started: startedJobs.length,
			lost: callbacks - startedJobs.length,
			duplicated: [...perJob.entries()]
				.filter(([id]) => rightSet.has(id))
				.reduce((sum, [, list]) => sum + list.length - 1, 0),
			concurrentDuplicated: [...concurrentJobs].reduce(
				(sum, id) => sum + Math.max(0, (perJob.get(id)?.length ?? 0) - 1),
				0,
			),
			rejected: deliveries.filter(
				(d) => wrongSet.has(d.jobId) && (d.status === 401 || d.status === 403),
			).length,
			wrongSecretExecutions: wrong.filter((id) => perJob.has(id)).length,
			failedExecutions: failed.length,
			medianMs: round(median(latencies), 0),
			p99Ms: round(percentile(latencies, 99), 0),
			maxMs: round(Math.max(...latencies), 0),
			phases: {
				toStartMs: round(median(toStart), 0),
				runMs: round(median(run), 0),
				p99ToStartMs: round(percentile(toStart, 99), 0),
				p99RunMs: round(percentile(run, 99), 0),
			},
			cpuSeconds: cpu,
			...(bench.env ? { n8nEnv: bench.env } : {}),
			loadAverage: load(),
		};
	} finally {
		await sim.close();
	}
}

export interface PollingWaitFigures {
	executions: number;
	completed: number;
	jobMinutes: number;
	callsPerJob: number;
	totalCalls: number;
	/** From the first call to the last execution's end, seconds. */
	wallSeconds: number;
	loadAverage: number[];
}

/** N executions of one By Polling workflow started at once; rate limits off (N creates at once). */
export async function benchPollingWaits(
	bench: BenchN8n,
	cfg: N8nBenchConfig,
): Promise<PollingWaitFigures> {
	const { pollingWaits: count, pollingJobMs: jobMs } = cfg.queue;
	const queuedMs = Math.min(15_000, jobMs / 4);
	const sim = await startSim({ jobTimings: { queuedMs, processingMs: jobMs - queuedMs } });
	try {
		const email = await memberEmail(sim);
		const creds = await credentialsFor(bench.api, sim);
		const path = `queue-poll-${randomUUID().slice(0, 8)}`;
		const { id } = await bench.api.createWorkflow(jobWaitWorkflow('poll', creds, path, email));
		await bench.api.activate(id);
		const first = await bench.api.callWebhook(path, { json: { prompt: 'Bench polling wait 0' } });
		if (first.status !== 200) throw new Error(`polling waits: webhook answered ${first.status}`);
		const started = Date.now();
		await Promise.all(
			Array.from({ length: count - 1 }, (_, i) =>
				bench.api.callWebhook(path, { json: { prompt: `Bench polling wait ${i + 1}` } }),
			),
		);
		let executions: Execution[] = [];
		const deadline = Date.now() + jobMs + 300_000;
		for (;;) {
			await new Promise((r) => setTimeout(r, 5000));
			executions = await allExecutions(bench.api, id);
			if (
				executions.length >= count &&
				executions.every(
					(e) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting',
				)
			)
				break;
			if (Date.now() > deadline) break;
		}
		const ends = executions
			.map((e) => Date.parse(String((e as unknown as { stoppedAt: string }).stoppedAt)))
			.filter(Number.isFinite);
		const completed = executions.filter((e) => {
			const job = e.data?.resultData.runData['Create Scenario']?.[0]?.data?.main?.[0]?.[0]?.json as
				| { status?: string }
				| undefined;
			return e.status === 'success' && job?.status === 'completed';
		}).length;
		const totalCalls = (await sim.requests({ path: '/scenario-studio/*' })).length;
		return {
			executions: executions.length,
			completed,
			jobMinutes: jobMs / 60_000,
			callsPerJob: round(totalCalls / count, 2),
			totalCalls,
			wallSeconds: round((Math.max(...ends) - started) / 1000, 1),
			loadAverage: load(),
		};
	} finally {
		await sim.close();
	}
}
