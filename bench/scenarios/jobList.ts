/**
 * Item 3b: 50 five-minute jobs through Scenario Job → Create, By Polling, under the deployed limits
 * (60 requests and 10 creations a minute). Scaled in time as item 3: the simulator's clock runs
 * `jobTimeScale` times faster, and so do this process's Date.now and timers (the node's poll pauses,
 * its plan of each job's next read, its waits for a 429's retry_after, given in the service's seconds).
 * Bound: the creation time the limit allows (the 11th creation waits a minute, …) plus one job's duration.
 */
import type { IDataObject } from 'n8n-workflow';
import { performance } from 'node:perf_hooks';

import { config } from '../config';
import { startRemoteSimulator } from '../remoteSim';
import { runOperation } from '../runOperation';
import { round } from '../stats';
import { memberEmail, scaleAllTime } from './jobWait';

export interface JobListFigures {
	items: number;
	jobMinutes: number;
	timeScale: number;
	createsPerMinute: number;
	/** In the service's seconds. */
	wallSimSeconds: number;
	boundSimSeconds: number;
	wallRatioVsBound: number;
	/** Most calls spent on one job: its create and its reads (429 answers not counted, see rateLimitedAnswers). */
	callsPerJob: number;
	meanCallsPerJob: number;
	rateLimitedAnswers: number;
	/** Today's behaviour before the list wait (one item after another); null when not measured. */
	sequentialWallRatio: number | null;
	sequentialSimSeconds?: number;
	note?: string;
}

const ITEMS = 50;
const CREATES_PER_MINUTE = 10;

/** Today's behaviour before the list wait, for the record: one execution per item, one after another. */
async function sequentialSimSeconds(
	endpoint: { baseUrl: string; apiKey: string },
	parameters: IDataObject,
	input: IDataObject[],
	scale: number,
): Promise<number> {
	const started = performance.now();
	for (const item of input) {
		const [out] = await runOperation(endpoint, {
			...parameters,
			prompt: `${String(item.prompt)} (sequential)`,
		});
		if (out?.json.status !== 'completed')
			throw new Error(`sequential run ended with ${JSON.stringify(out?.json)}`);
	}
	return ((performance.now() - started) * scale) / 1000;
}

/** `sequential`: also run the items one after another (about ITEMS × 5 minutes ÷ scale of real time). */
export async function benchJobList(sequential: boolean): Promise<JobListFigures> {
	const scale = config.jobTimeScale;
	const queuedMs = 15_000;
	const sim = await startRemoteSimulator({
		timeScale: scale,
		jobTimings: { queuedMs, processingMs: config.jobDurationMs - queuedMs },
	});
	const restore = scaleAllTime(scale);
	try {
		const email = await memberEmail(sim);
		// The deployed minute limits; the daily one is lifted so repeated bench runs fit (a run spends ~500).
		await sim.setRateLimits({
			perMinute: 60,
			createsPerMinute: CREATES_PER_MINUTE,
			perDay: 1_000_000,
		});
		await sim.clearRequests();
		const input: IDataObject[] = Array.from({ length: ITEMS }, (_, i) => ({
			prompt: `Bench list: deal ${i}`,
		}));
		const endpoint = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
		const parameters = {
			resource: 'scenarioJob',
			operation: 'create',
			userEmail: email,
			prompt: '={{ $json.prompt }}',
			waitForCompletion: 'poll',
			options: { timeLimitMinutes: 30 },
		};
		const started = performance.now();
		const items = await runOperation(endpoint, parameters, input);
		const wallSimSeconds = ((performance.now() - started) * scale) / 1000;
		const done = items.filter((item) => item.json.status === 'completed').length;
		if (done !== ITEMS) throw new Error(`${done} of ${ITEMS} jobs completed`);

		const calls = await sim.requests({ path: '/scenario-studio/*' });
		const perJob = items.map((item) => {
			const id = String(item.json.id);
			const reads = calls.filter(
				(r) => r.method === 'GET' && r.status === 200 && r.path.endsWith(`/${id}`),
			).length;
			return 1 + reads;
		});
		const creationSeconds = (Math.ceil(ITEMS / CREATES_PER_MINUTE) - 1) * 60;
		const boundSimSeconds = creationSeconds + config.jobDurationMs / 1000;
		const sequentialSeconds = sequential
			? await sequentialSimSeconds(endpoint, parameters, input, scale)
			: undefined;
		return {
			items: ITEMS,
			jobMinutes: config.jobDurationMs / 60_000,
			timeScale: scale,
			createsPerMinute: CREATES_PER_MINUTE,
			wallSimSeconds: round(wallSimSeconds, 1),
			boundSimSeconds,
			wallRatioVsBound: round(wallSimSeconds / boundSimSeconds, 3),
			callsPerJob: Math.max(...perJob),
			meanCallsPerJob: round(perJob.reduce((a, b) => a + b, 0) / perJob.length, 2),
			rateLimitedAnswers: calls.filter((r) => r.status === 429).length,
			sequentialWallRatio:
				sequentialSeconds === undefined ? null : round(sequentialSeconds / boundSimSeconds, 2),
			...(sequentialSeconds === undefined
				? {
						note: `sequentialWallRatio not measured (it takes about ${Math.round((ITEMS * config.jobDurationMs) / scale / 60_000)} minutes of real time at × ${scale}; add --sequential); one item after another needs at least ${ITEMS} × ${config.jobDurationMs / 60_000} minutes = ${round((ITEMS * config.jobDurationMs) / 1000 / boundSimSeconds, 1)}× the bound.`,
					}
				: { sequentialSimSeconds: round(sequentialSeconds, 1) }),
		};
	} finally {
		restore();
		await sim.close();
	}
}
