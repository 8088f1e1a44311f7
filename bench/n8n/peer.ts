/**
 * This package's node side by side with what a user builds from n8n's own nodes, in one real n8n
 * (regular mode): per item (no limit, then the deployed limits), Return All, and waiting for a job.
 * Pairs run back to back in alternating order, so drift on the shared machine hits both sides.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import type { N8nApi } from '../../scripts/n8n/api';
import { startScalingProxy } from '../scaledTime';
import { median, round } from '../stats';
import type { N8nBenchConfig } from './config';
import type { BenchN8n } from './instance';
import { errorOf, load, nodeRuns, outputCount, runWorkflow, type RunResult } from './measure';
import { startSim, startSimWithScenarios, type SimChild } from './sim';
import {
	jobWaitWorkflow,
	naiveJobWaitWorkflow,
	NO_PACING,
	perItemWorkflows,
	returnAllWorkflows,
	type Credentials,
} from './workflows';

async function credentialsFor(
	api: N8nApi,
	baseUrl: string,
	apiKey: string,
	label: string,
): Promise<Credentials> {
	const node = await api.createCredential(`Workspace Practice (${label})`, 'workspacePracticeApi', {
		baseUrl,
		apiKey,
	});
	const header = await api.createCredential(`Header Auth (${label})`, 'httpHeaderAuth', {
		name: 'Authorization',
		value: `Bearer ${apiKey}`,
	});
	return {
		node: { id: node.id, name: node.name },
		header: { id: header.id, name: header.name },
		baseUrl,
	};
}

async function deploy(
	api: N8nApi,
	workflow: Parameters<N8nApi['createWorkflow']>[0],
): Promise<string> {
	const { id } = await api.createWorkflow(workflow);
	await api.activate(id);
	return id;
}

function webhookPath(workflow: { nodes: Array<Record<string, unknown>> }): string {
	return String((workflow.nodes[0].parameters as { path: string }).path);
}

/** Runs `a` then `b` on even runs, `b` then `a` on odd ones. */
async function pair<T>(run: number, a: () => Promise<T>, b: () => Promise<T>): Promise<[T, T]> {
	if (run % 2 === 0) {
		const x = await a();
		return [x, await b()];
	}
	const y = await b();
	return [await a(), y];
}

export interface PerItemSide {
	ms: number;
	itemsCompleted: number;
	itemsFailed: number;
	requests: number;
	rateLimited: number;
	status: string;
	error?: string;
}

export interface PerItemFigures {
	items: number;
	latencyMs: number;
	nodeMs: number;
	httpRequestMs: number;
	ratio: number;
	ratios: number[];
	nodeMsPerItem: number;
	loadAverage: number[];
}

export async function benchPerItem(bench: BenchN8n, cfg: N8nBenchConfig): Promise<PerItemFigures> {
	const sim = await startSim({ latencyMs: cfg.perItem.latencyMs });
	try {
		const creds = await credentialsFor(bench.api, sim.baseUrl, sim.apiKey, 'per item');
		const flows = perItemWorkflows(creds, `per-item-${randomUUID().slice(0, 8)}`, NO_PACING);
		const nodeId = await deploy(bench.api, flows.node);
		const httpId = await deploy(bench.api, flows.http);
		const body = { items: Array.from({ length: cfg.perItem.items }, (_, i) => ({ row: i })) };
		const once = async (id: string, path: string, name: string): Promise<number> => {
			const r = await runWorkflow(bench.api, id, path, body);
			const out = outputCount(r.execution, name);
			if (out !== cfg.perItem.items)
				throw new Error(
					`${name}: ${out} items of ${cfg.perItem.items} (${r.execution.status}: ${errorOf(r.execution) ?? ''})`,
				);
			return r.ms;
		};
		// Warm-up of both (n8n loads node types and compiles on first use), not counted.
		await once(nodeId, webhookPath(flows.node), 'Workspace Practice');
		await once(httpId, webhookPath(flows.http), 'HTTP Request');
		const nodeMs: number[] = [];
		const httpMs: number[] = [];
		const ratios: number[] = [];
		for (let run = 0; run < cfg.runs; run++) {
			const [n, h] = await pair(
				run,
				() => once(nodeId, webhookPath(flows.node), 'Workspace Practice'),
				() => once(httpId, webhookPath(flows.http), 'HTTP Request'),
			);
			nodeMs.push(n);
			httpMs.push(h);
			ratios.push(n / h);
		}
		return {
			items: cfg.perItem.items,
			latencyMs: cfg.perItem.latencyMs,
			nodeMs: round(median(nodeMs), 1),
			httpRequestMs: round(median(httpMs), 1),
			ratio: round(median(ratios), 3),
			ratios: ratios.map((r) => round(r, 3)),
			nodeMsPerItem: round(median(nodeMs) / cfg.perItem.items, 2),
			loadAverage: load(),
		};
	} finally {
		await sim.close();
	}
}

export interface LimitedFigures {
	items: number;
	perMinute: number;
	perDay: number;
	/** 1: real time. Otherwise the service's clock runs this many times faster and pacing is off. */
	timeScale: number;
	/** Whether the node ran at its default Batching (pacing on) or with pacing off. */
	nodeBatching: 'default' | 'pacing off';
	/** Times in the service's seconds (real seconds at timeScale 1). */
	node: PerItemSide & {
		simSeconds: number;
		boundSimSeconds: number;
		ratioVsBound: number;
		ratios: number[];
		completedRuns: number;
	};
	/** n8n's HTTP Request node at its defaults. */
	httpRequest: PerItemSide & { simSeconds: number };
	runs: number;
	loadAverage: number[];
}

/** The simulator's record once no more answers come in (a failed execution can end before its last). */
async function settledRequests(sim: SimChild): Promise<Awaited<ReturnType<SimChild['requests']>>> {
	let previous = await sim.requests();
	for (;;) {
		await new Promise((r) => setTimeout(r, 500));
		const now = await sim.requests();
		if (now.length === previous.length) return now;
		previous = now;
	}
}

export async function benchPerItemLimited(
	bench: BenchN8n,
	cfg: N8nBenchConfig,
): Promise<LimitedFigures> {
	const { timeScale: scale, items, perMinute, perDay } = cfg.limited;
	const scaled = scale !== 1;
	const sim = await startSim({
		timeScale: scale,
		latencyMs: Math.max(1, Math.round(cfg.limited.latencyMs / scale)),
	});
	// Only a scaled clock needs the proxy: it shrinks every Retry-After to real seconds.
	const proxy = scaled ? await startScalingProxy(sim.baseUrl, scale) : undefined;
	const toSim = (ms: number): number => (ms * scale) / 1000;
	try {
		const creds = await credentialsFor(
			bench.api,
			proxy?.baseUrl ?? sim.baseUrl,
			sim.apiKey,
			'limited',
		);
		const tag = randomUUID().slice(0, 8);
		// In real time the node runs as a user adds it: no Batching set, so paced to the deployed limits.
		// On a scaled clock its real-minute pacing would be `scale` times too slow: off, and what that
		// run measures is the 429 handling with items in parallel.
		const flows = perItemWorkflows(creds, `limited-${tag}`, scaled ? NO_PACING : undefined);
		// The bound's unlimited run: the simulator has no limits then, so pacing is off.
		const free = perItemWorkflows(creds, `limited-free-${tag}`, NO_PACING).node;
		const nodeId = await deploy(bench.api, flows.node);
		const freeId = await deploy(bench.api, free);
		const httpId = await deploy(bench.api, flows.http);
		const body = { items: Array.from({ length: items }, (_, i) => ({ row: i })) };
		const side = async (
			id: string,
			path: string,
			name: string,
			limited: boolean,
		): Promise<PerItemSide> => {
			// Setting the limits empties the simulator's minute and day windows: the HTTP Request side's
			// requests and 429s never eat the node side's day of 1,000, nor the other way round.
			await sim.setRateLimits(limited ? { perMinute, perDay, createsPerMinute: 10 } : false);
			await sim.clearRequests();
			const r: RunResult = await runWorkflow(bench.api, id, path, body);
			const requests = await settledRequests(sim);
			const ok = requests.filter((q) => q.status === 200).length;
			const completed = outputCount(r.execution, name);
			return {
				ms: r.ms,
				itemsCompleted: completed,
				itemsFailed: items - completed,
				requests: requests.length,
				rateLimited: requests.filter((q) => q.status === 429).length,
				status: r.execution.status,
				...(completed !== items
					? { error: `${errorOf(r.execution) ?? r.execution.status}; ${ok} requests answered 200` }
					: {}),
			};
		};
		const nodeRunsList: Array<PerItemSide & { bound: number }> = [];
		const httpRunsList: PerItemSide[] = [];
		for (let run = 0; run < cfg.limited.runs; run++) {
			// The bound, measured pair by pair: an unlimited run of the node just before.
			const unlimited = await side(freeId, webhookPath(free), 'Workspace Practice', false);
			const fullWindows = Math.floor((items - 1) / perMinute);
			const bound =
				fullWindows * 60 + (toSim(unlimited.ms) * (items - fullWindows * perMinute)) / items;
			const [n, h] = await pair(
				run,
				() => side(nodeId, webhookPath(flows.node), 'Workspace Practice', true),
				() => side(httpId, webhookPath(flows.http), 'HTTP Request', true),
			);
			nodeRunsList.push({ ...n, bound });
			httpRunsList.push(h);
		}
		const med = (
			list: PerItemSide[],
			key: 'itemsCompleted' | 'itemsFailed' | 'requests' | 'rateLimited',
		): number => median(list.map((s) => s[key]));
		const nodeRatios = nodeRunsList.map((s) => toSim(s.ms) / s.bound);
		return {
			items,
			perMinute,
			perDay,
			timeScale: scale,
			nodeBatching: scaled ? 'pacing off' : 'default',
			runs: cfg.limited.runs,
			node: {
				ms: round(median(nodeRunsList.map((s) => s.ms)), 1),
				simSeconds: round(toSim(median(nodeRunsList.map((s) => s.ms))), 1),
				boundSimSeconds: round(median(nodeRunsList.map((s) => s.bound)), 1),
				ratioVsBound: round(median(nodeRatios), 3),
				ratios: nodeRatios.map((r) => round(r, 3)),
				completedRuns: nodeRunsList.filter((s) => s.itemsCompleted === items).length,
				itemsCompleted: med(nodeRunsList, 'itemsCompleted'),
				itemsFailed: med(nodeRunsList, 'itemsFailed'),
				requests: med(nodeRunsList, 'requests'),
				rateLimited: med(nodeRunsList, 'rateLimited'),
				status: nodeRunsList.map((s) => s.status).join(','),
				...(nodeRunsList.find((s) => s.error)
					? { error: nodeRunsList.find((s) => s.error)?.error }
					: {}),
			},
			httpRequest: {
				ms: round(median(httpRunsList.map((s) => s.ms)), 1),
				simSeconds: round(toSim(median(httpRunsList.map((s) => s.ms))), 1),
				itemsCompleted: med(httpRunsList, 'itemsCompleted'),
				itemsFailed: med(httpRunsList, 'itemsFailed'),
				requests: med(httpRunsList, 'requests'),
				rateLimited: med(httpRunsList, 'rateLimited'),
				status: httpRunsList.map((s) => s.status).join(','),
				...(httpRunsList.find((s) => s.error)
					? { error: httpRunsList.find((s) => s.error)?.error?.slice(0, 300) }
					: {}),
			},
			loadAverage: load(),
		};
	} finally {
		await proxy?.close();
		await sim.close();
	}
}

export interface ReturnAllFigures {
	rows: number;
	latencyMs: number;
	nodeRequests: number;
	httpRequestRequests: number;
	nodeMs: number;
	httpRequestMs: number;
	ratio: number;
	ratios: number[];
	/** Peak RSS of the n8n process during the run (MB), and before it. */
	nodePeakRssMb: number;
	httpRequestPeakRssMb: number;
	rssBeforeMb: number;
	loadAverage: number[];
}

export async function benchReturnAll(
	bench: BenchN8n,
	cfg: N8nBenchConfig,
): Promise<ReturnAllFigures> {
	const { rows, latencyMs } = cfg.returnAll;
	const sim = await startSimWithScenarios(rows, { latencyMs });
	const pid = bench.n8n.pid('n8n') ?? 0;
	try {
		const creds = await credentialsFor(bench.api, sim.baseUrl, sim.apiKey, 'return all');
		const flows = returnAllWorkflows(creds, `return-all-${randomUUID().slice(0, 8)}`);
		const nodeId = await deploy(bench.api, flows.node);
		const httpId = await deploy(bench.api, flows.http);
		const once = async (
			id: string,
			path: string,
			name: string,
		): Promise<{ ms: number; requests: number; rss: number }> => {
			await sim.clearRequests();
			const r = await runWorkflow(bench.api, id, path, {}, pid);
			const out = outputCount(r.execution, name);
			if (out !== rows)
				throw new Error(
					`${name}: ${out} rows of ${rows} (${r.execution.status}: ${errorOf(r.execution) ?? ''})`,
				);
			return { ms: r.ms, requests: (await sim.requests()).length, rss: r.peakRssMb ?? 0 };
		};
		const rssBefore = sampleBefore(pid);
		await once(nodeId, webhookPath(flows.node), 'Workspace Practice');
		await once(httpId, webhookPath(flows.http), 'Scenarios');
		const node: Array<{ ms: number; requests: number; rss: number }> = [];
		const http: Array<{ ms: number; requests: number; rss: number }> = [];
		for (let run = 0; run < cfg.runs; run++) {
			const [n, h] = await pair(
				run,
				() => once(nodeId, webhookPath(flows.node), 'Workspace Practice'),
				() => once(httpId, webhookPath(flows.http), 'Scenarios'),
			);
			node.push(n);
			http.push(h);
		}
		const ratios = node.map((n, i) => n.ms / http[i].ms);
		return {
			rows,
			latencyMs,
			nodeRequests: median(node.map((n) => n.requests)),
			httpRequestRequests: median(http.map((h) => h.requests)),
			nodeMs: round(median(node.map((n) => n.ms)), 1),
			httpRequestMs: round(median(http.map((h) => h.ms)), 1),
			ratio: round(median(ratios), 3),
			ratios: ratios.map((r) => round(r, 3)),
			nodePeakRssMb: round(median(node.map((n) => n.rss)), 1),
			httpRequestPeakRssMb: round(median(http.map((h) => h.rss)), 1),
			rssBeforeMb: rssBefore,
			loadAverage: load(),
		};
	} finally {
		await sim.close();
	}
}

function sampleBefore(pid: number): number {
	try {
		const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? round(Number(match[1]) / 1024, 1) : 0;
	} catch {
		return 0;
	}
}

export interface JobWaitSide {
	calls: number;
	executions: number;
	nodeRuns: number;
}

export interface JobWaitFigures {
	jobMinutes: number;
	runs: number;
	/** Median per job, by mode. */
	byPolling: JobWaitSide;
	untilCallback: JobWaitSide;
	httpRequestWaitLoop: JobWaitSide & { waitSeconds: number };
	loadAverage: number[];
}

async function memberEmail(sim: SimChild): Promise<string> {
	const answer = await fetch(`${sim.baseUrl}/workspace/members?page_size=1`, {
		headers: { Authorization: `Bearer ${sim.apiKey}` },
	});
	return ((await answer.json()) as { data: Array<{ user: { email: string } }> }).data[0].user.email;
}

/** The job an execution created: the output of its create node (the node's, or the HTTP Request's). */
function jobIdOf(
	execution: Awaited<ReturnType<N8nApi['execution']>>,
	createNode: string,
): string | undefined {
	const first = execution.data?.resultData.runData[createNode]?.[0]?.data?.main?.[0]?.[0]?.json as
		| { id?: string }
		| undefined;
	return first?.id;
}

/**
 * Real time: n8n's timers (the node's poll pauses, the Wait node) run in n8n's process and cannot be
 * sped up from outside, so the job takes its full length. The runs go side by side (all modes, all
 * runs at once) so the whole item takes one job's length. Rate limits are off: 3 × runs creates at
 * once would exceed the 10 creations a minute, which is not what this item measures.
 */
export async function benchJobWait(bench: BenchN8n, cfg: N8nBenchConfig): Promise<JobWaitFigures> {
	const { jobMs, queuedMs, naiveWaitSeconds } = cfg.jobWait;
	const sim = await startSim({ jobTimings: { queuedMs, processingMs: jobMs - queuedMs } });
	try {
		const email = await memberEmail(sim);
		const creds = await credentialsFor(bench.api, sim.baseUrl, sim.apiKey, 'job wait');
		const tag = randomUUID().slice(0, 8);
		const flows = {
			poll: jobWaitWorkflow('poll', creds, `job-poll-${tag}`, email),
			callback: jobWaitWorkflow('callback', creds, `job-callback-${tag}`, email),
			naive: naiveJobWaitWorkflow(creds, `job-naive-${tag}`, email, naiveWaitSeconds),
		};
		const ids = {
			poll: await deploy(bench.api, flows.poll),
			callback: await deploy(bench.api, flows.callback),
			naive: await deploy(bench.api, flows.naive),
		};
		const modes = ['poll', 'callback', 'naive'] as const;
		const prompts: Record<string, string[]> = { poll: [], callback: [], naive: [] };
		for (let run = 0; run < cfg.runs; run++) {
			for (const mode of modes) {
				const prompt = `Bench ${tag} run ${run}: a renewal call (${mode})`;
				prompts[mode].push(prompt);
				const res = await bench.api.callWebhook(webhookPath(flows[mode]), { json: { prompt } });
				if (res.status !== 200) throw new Error(`job wait ${mode}: webhook answered ${res.status}`);
			}
		}
		// Wait for every execution to end: the job's length plus the slowest poll's overshoot.
		const deadline = Date.now() + jobMs + 150_000;
		const finished: Record<string, Awaited<ReturnType<N8nApi['executions']>>> = {};
		for (;;) {
			let all = true;
			for (const mode of modes) {
				finished[mode] = await bench.api.executions(ids[mode]);
				if (
					finished[mode].length < cfg.runs ||
					finished[mode].some((e) => !e.finished && e.status !== 'error')
				)
					all = false;
			}
			if (all) break;
			if (Date.now() > deadline)
				throw new Error(
					`job wait: executions did not end in time: ${modes.map((m) => `${m} ${finished[m].map((e) => e.status).join('/')}`).join('; ')}`,
				);
			await new Promise((r) => setTimeout(r, 5000));
		}
		const recorded = await sim.requests({ path: '/scenario-studio/*' });
		const side = async (mode: (typeof modes)[number]): Promise<JobWaitSide> => {
			const creates = recorded.filter(
				(r) =>
					r.method === 'POST' &&
					prompts[mode].includes(String((r.body as { prompt?: string } | undefined)?.prompt)),
			);
			if (creates.length !== cfg.runs)
				throw new Error(`job wait ${mode}: ${creates.length} creates for ${cfg.runs} runs`);
			// The create, then every request naming the job.
			const calls = finished[mode].map((e) => {
				const jobId = jobIdOf(e, mode === 'naive' ? 'Create Job' : 'Create Scenario');
				return (
					1 + recorded.filter((r) => jobId !== undefined && r.path.endsWith(`/${jobId}`)).length
				);
			});
			const failed = finished[mode].filter((e) => e.status !== 'success');
			if (failed.length)
				throw new Error(
					`job wait ${mode}: ${failed.length} executions ended ${failed.map((e) => `${e.status} ${errorOf(e) ?? ''}`).join('; ')}`,
				);
			return {
				calls: median(calls),
				executions: finished[mode].length / cfg.runs,
				nodeRuns: median(finished[mode].map(nodeRuns)),
			};
		};
		return {
			jobMinutes: jobMs / 60_000,
			runs: cfg.runs,
			byPolling: await side('poll'),
			untilCallback: await side('callback'),
			httpRequestWaitLoop: { ...(await side('naive')), waitSeconds: naiveWaitSeconds },
			loadAverage: load(),
		};
	} finally {
		await sim.close();
	}
}
