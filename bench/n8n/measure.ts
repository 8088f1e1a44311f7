/** Running a bench workflow through n8n and reading back what it did: wall time, items, peak RSS. */
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import type { Execution, N8nApi } from '../../scripts/n8n/api';
import { round } from '../stats';

export interface RunResult {
	ms: number;
	status: number;
	execution: Execution;
	/** Peak RSS of the sampled process during the run, MB (when a PID was given). */
	peakRssMb?: number;
}

function rssMb(pid: number): number {
	try {
		const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) / 1024 : 0;
	} catch {
		return 0;
	}
}

/** Samples a process's resident memory every 20 ms until stopped; returns the highest value seen. */
export function sampleRss(pid: number): { before: number; stop(): number } {
	const before = rssMb(pid);
	let peak = before;
	const timer = setInterval(() => {
		peak = Math.max(peak, rssMb(pid));
	}, 20);
	return {
		before,
		stop: () => {
			clearInterval(timer);
			return Math.max(peak, rssMb(pid));
		},
	};
}

async function latestExecution(
	api: N8nApi,
	workflowId: string,
	after: number,
	answer: string,
): Promise<Execution> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const body = (
			await api.raw(`/api/v1/executions?workflowId=${workflowId}&limit=1&includeData=true`)
		).body as { data: Execution[] };
		const [latest] = body.data;
		if (
			latest &&
			Number(latest.id) > after &&
			latest.status !== 'running' &&
			latest.status !== 'new'
		)
			return latest;
		if (Date.now() > deadline) {
			throw new Error(
				`no finished execution of workflow ${workflowId} after ${after} (latest: ${latest?.id} ${latest?.status}; webhook answered ${answer})`,
			);
		}
		await new Promise((r) => setTimeout(r, 200));
	}
}

export async function lastExecutionId(api: N8nApi, workflowId: string): Promise<number> {
	const body = (await api.raw(`/api/v1/executions?workflowId=${workflowId}&limit=1`)).body as {
		data: Execution[];
	};
	return body.data[0] ? Number(body.data[0].id) : 0;
}

/**
 * POSTs JSON and reads the whole answer. node:http rather than fetch: fetch gives up when the answer's
 * headers take over 5 minutes (undici's headersTimeout), and a paced run answers only when it ends.
 */
function postJson(
	url: string,
	body: unknown,
	timeoutMs: number,
): Promise<{ status: number; text: string }> {
	const payload = Buffer.from(JSON.stringify(body));
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			url,
			{
				method: 'POST',
				headers: { 'content-type': 'application/json', 'content-length': payload.length },
				timeout: timeoutMs,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
				);
				res.on('error', reject);
			},
		);
		req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in ${timeoutMs} ms`)));
		req.on('error', reject);
		req.end(payload);
	});
}

/**
 * POSTs to a Webhook-triggered workflow that answers when its last node ends, and times it; then reads
 * the saved execution (not timed).
 */
export async function runWorkflow(
	api: N8nApi,
	workflowId: string,
	path: string,
	body: unknown,
	rssOf?: number,
): Promise<RunResult> {
	const after = await lastExecutionId(api, workflowId);
	// Webhooks register after activation returns: a 404 started nothing, so try again (not timed).
	const deadline = Date.now() + 15_000;
	for (;;) {
		const rss = rssOf ? sampleRss(rssOf) : undefined;
		const start = performance.now();
		const res = await postJson(`${api.webhookBaseUrl}/webhook/${path}`, body, 3_600_000);
		const text = res.text;
		const ms = performance.now() - start;
		const peakRssMb = rss ? round(rss.stop(), 1) : undefined;
		if (res.status === 404 && Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 300));
			continue;
		}
		const execution = await latestExecution(
			api,
			workflowId,
			after,
			`${res.status} ${text.slice(0, 300)}`,
		);
		return { ms, status: res.status, execution, peakRssMb };
	}
}

/** Items a node put out in its last run of an execution (0 when it failed or did not run). */
export function outputCount(execution: Execution, nodeName: string): number {
	const runs = execution.data?.resultData.runData[nodeName];
	return runs?.at(-1)?.data?.main?.[0]?.length ?? 0;
}

/** Node runs of an execution (every node's every run, the trigger included). */
export function nodeRuns(execution: Execution): number {
	return Object.values(execution.data?.resultData.runData ?? {}).reduce(
		(sum, runs) => sum + runs.length,
		0,
	);
}

export function errorOf(execution: Execution): string | undefined {
	const error = execution.data?.resultData.error as
		| { message?: string; description?: string }
		| undefined;
	return error
		? `${error.message ?? ''}${error.description ? ` (${error.description})` : ''}`
		: undefined;
}

export function load(): number[] {
	return os.loadavg().map((l) => round(l, 2));
}

/** CPU seconds (user + system) a process has used so far, from /proc (0 when it is gone). */
export function cpuSeconds(pid: number): number {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return (Number(fields[11]) + Number(fields[12])) / 100;
	} catch {
		return 0;
	}
}

/** Thread names as /proc shows them → what the bench calls them (see threadCpuSeconds). */
const THREAD_NAMES: Record<string, string> = {
	MainThread: 'unnamed (isolated-vm)',
	'v8:ProfEvntProc': 'CPU profiler',
};

/**
 * CPU seconds per thread group of a process, from /proc/<pid>/task: the main thread (the one a CPU
 * profile sees), and the others by name. Threads inherit their creator's name on Linux, so threads the
 * main thread starts without naming them (isolated-vm's pool, the only native addon of n8n's that
 * starts threads in the webhook process) show as `MainThread`; V8's helpers (GC, compilers) are
 * `V8Worker`, libuv's pool `libuv-worker`, the CPU profiler's own thread `v8:ProfEvntProc`.
 */
export function threadCpuSeconds(pid: number): Record<string, number> {
	const out: Record<string, number> = {};
	let tasks: string[] = [];
	try {
		tasks = readdirSync(`/proc/${pid}/task`);
	} catch {
		return out;
	}
	for (const tid of tasks) {
		try {
			const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
			const fields = stat.split(') ')[1].split(' ');
			const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
			const name = tid === String(pid) ? 'main thread' : (THREAD_NAMES[comm] ?? comm);
			out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
		} catch {
			// the thread ended meanwhile
		}
	}
	return out;
}

/** What each thread group used between two readings of threadCpuSeconds (threads that ended are lost). */
export function threadCpuDelta(
	before: Record<string, number>,
	after: Record<string, number>,
): Record<string, number> {
	return Object.fromEntries(
		Object.entries(after).map(([name, s]) => [name, round(s - (before[name] ?? 0), 2)]),
	);
}
