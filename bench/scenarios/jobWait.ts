/**
 * Item 3: API calls to create a 5-minute job and wait for it, in the node's two wait modes and as a
 * user's loop that reads the job every 5 s. Scaled in time: the simulator's clock runs `jobTimeScale`
 * times faster than real time, and while this item runs so do this process's Date.now and timers
 * (the node's poll pauses and its plan of each next read, the naive loop's 5 s), so each side keeps
 * its schedule in the service's time. The three jobs of a run wait side by side.
 */
import type { IDataObject } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';

import { config } from '../config';
import { client, naivePolling } from '../baselines';
import { runOperation } from '../runOperation';
import { startRemoteSimulator, type BenchSimulator } from '../remoteSim';
import { median } from '../stats';
import type { JobWaitFigures } from '../results';
import { outputOf, WaitingExecutions } from '../../n8n-harness/resumeWaiting';
import { runNode } from '../../n8n-harness/runNode';
import { WebhookServer } from '../../n8n-harness/webhookServer';

/**
 * Runs this process's time `scale` times faster: Date.now and every timer. A job's wait (one job or a
 * list, `waitMany`) plans each next read with Date.now, so scaling timers alone would leave its
 * schedule in real time.
 */
export function scaleAllTime(scale: number): () => void {
	const realNow = Date.now.bind(Date);
	const origin = realNow();
	const originalSetTimeout = globalThis.setTimeout;
	Date.now = () => origin + (realNow() - origin) * scale;
	const scaled = (handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
		originalSetTimeout(handler, typeof ms === 'number' && ms > 0 ? ms / scale : ms, ...args);
	// Node's setTimeout type carries a promisify marker the wrapper does not need.
	globalThis.setTimeout = scaled as unknown as typeof setTimeout;
	return () => {
		Date.now = realNow;
		globalThis.setTimeout = originalSetTimeout;
	};
}

/** Calls spent on one job: its create (recognised by the prompt) and every request on its path. */
async function callsFor(sim: BenchSimulator, prompt: string, jobId: string): Promise<number> {
	const calls = await sim.requests({ path: '/scenario-studio/*' });
	return calls.filter(
		(r) =>
			(r.method === 'POST' && (r.body as IDataObject | undefined)?.prompt === prompt) ||
			r.path.endsWith(`/${jobId}`),
	).length;
}

export async function memberEmail(sim: BenchSimulator): Promise<string> {
	const answer = await client(sim.baseUrl, sim.apiKey).get<{
		data: Array<{ user: { email: string } }>;
	}>('/workspace/members', {
		params: { page_size: 1 },
	});
	return answer.data.data[0].user.email;
}

interface RunCounts {
	callback: number;
	polling: number;
	naive: number;
}

async function oneRun(
	sim: BenchSimulator,
	waiting: WaitingExecutions,
	email: string,
	run: number,
): Promise<RunCounts> {
	const endpoint = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	const prompts = {
		callback: `Bench run ${run}: a renewal call, waited for by callback`,
		polling: `Bench run ${run}: a renewal call, waited for by polling`,
		naive: `Bench run ${run}: a renewal call, polled every 5 s`,
	};
	const form = (prompt: string, waitForCompletion: string) => ({
		resource: 'scenarioJob',
		operation: 'create',
		userEmail: email,
		prompt,
		waitForCompletion,
	});

	const byCallback = async (): Promise<number> => {
		const executionId = `bench-${randomUUID()}`;
		const result = await runNode({
			parameters: form(prompts.callback, 'callback'),
			credentials: endpoint,
			executionId,
			urls: waiting.urls(),
		});
		if (result.error) throw new Error(`Until Callback failed: ${result.error.message}`);
		const [item] = outputOf(await waiting.hold(executionId, result));
		if (item?.json.status !== 'completed')
			throw new Error(`Until Callback ended with ${JSON.stringify(item?.json)}`);
		return await callsFor(sim, prompts.callback, String(item.json.id));
	};
	const byPolling = async (): Promise<number> => {
		const [item] = await runOperation(endpoint, form(prompts.polling, 'poll'));
		if (item?.json.status !== 'completed')
			throw new Error(`By Polling ended with ${JSON.stringify(item?.json)}`);
		return await callsFor(sim, prompts.polling, String(item.json.id));
	};
	const naive = async (): Promise<number> => {
		const result = await naivePolling(
			client(sim.baseUrl, sim.apiKey),
			{ user_email: email, prompt: prompts.naive },
			config.naivePollMs,
		);
		if (result.status !== 'completed') throw new Error(`Naive polling ended with ${result.status}`);
		return result.calls;
	};
	const [callback, polling, naiveCalls] = await Promise.all([byCallback(), byPolling(), naive()]);
	return { callback, polling, naive: naiveCalls };
}

export async function benchJobWait(): Promise<JobWaitFigures> {
	const scale = config.jobTimeScale;
	const queuedMs = 15_000;
	const sim = await startRemoteSimulator({
		timeScale: scale,
		jobTimings: { queuedMs, processingMs: config.jobDurationMs - queuedMs },
	});
	const server = new WebhookServer();
	await server.start();
	const waiting = new WaitingExecutions(server);
	const restore = scaleAllTime(scale);
	try {
		const email = await memberEmail(sim);
		const runs: RunCounts[] = [];
		for (let run = 0; run < config.runs; run++) runs.push(await oneRun(sim, waiting, email, run));
		return {
			measured: true,
			jobMinutes: config.jobDurationMs / 60_000,
			timeScale: scale,
			callbackCalls: median(runs.map((r) => r.callback)),
			pollingCalls: median(runs.map((r) => r.polling)),
			naiveCalls: median(runs.map((r) => r.naive)),
			runsDetail: runs,
		};
	} finally {
		restore();
		await server.close();
		await sim.close();
	}
}
