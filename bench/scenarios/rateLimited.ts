/**
 * Item 2: Return All over 10,000 rows with the 60-a-minute limit on. The simulator's clock runs
 * `rateLimitTimeScale` times faster than real time (a proxy scales Retry-After to match), so the minute
 * the limit waits out lasts a few seconds. The bound: N requests at L a minute cannot finish before the
 * last one is admitted, floor((N - 1) / L) minutes after the first, plus its own round trip.
 */
import { config } from '../config';
import { runOperation } from '../engine';
import { startScalingProxy, ScaledClock } from '../scaledTime';
import { startWithRows } from '../simulators';
import { median, round, timed } from '../stats';
import type { ListTarget } from '../target';

export interface RateLimitedFigures {
	rows: number;
	limitPerMinute: number;
	timeScale: number;
	completed: boolean;
	/** Runs that finished with every row and no error. */
	completedRuns: number;
	runs: number;
	requests: number;
	rateLimitedAnswers: number;
	/** Both in the service's (simulated) seconds. */
	wallSimSeconds: number;
	boundSimSeconds: number;
	ratioVsBound: number;
	ratios: number[];
	error?: string;
}

export async function benchRateLimited(target: ListTarget): Promise<RateLimitedFigures> {
	const scale = config.rateLimitTimeScale;
	const simLatencyMs = config.latencyMs;
	const realLatencyMs = Math.max(1, Math.round(simLatencyMs / scale));
	const sim = await startWithRows(target, config.rows, { clock: new ScaledClock(scale), latencyMs: realLatencyMs });
	const proxy = await startScalingProxy(sim.baseUrl, scale);
	const endpoint = { baseUrl: proxy.baseUrl, apiKey: sim.apiKey };
	const parameters = { resource: target.resource, operation: target.operation, returnAll: true };
	const limitPerMinute = config.rateLimitPerMinute;
	try {
		// Warm-up without the limit, so the measured runs start with an empty window.
		await runOperation(endpoint, { ...parameters, returnAll: false, limit: 1 });
		const walls: number[] = [];
		const ratios: number[] = [];
		const requests: number[] = [];
		const limited: number[] = [];
		let completedRuns = 0;
		let error: string | undefined;
		let bound = 0;
		for (let run = 0; run < config.runs; run++) {
			sim.control.setRateLimits({ perMinute: limitPerMinute, perDay: 1_000_000, createsPerMinute: 10 });
			sim.control.clearRequests();
			proxy.resetCounts();
			try {
				const { result: items, ms } = await timed(() => runOperation(endpoint, parameters));
				if (items.length === config.rows) completedRuns++;
				else error = `returned ${items.length} rows of ${config.rows}`;
				const admitted = sim.control.requests().filter((r) => r.status === 200).length;
				bound = Math.floor((admitted - 1) / limitPerMinute) * 60 + simLatencyMs / 1000;
				const wall = (ms * scale) / 1000;
				walls.push(wall);
				ratios.push(wall / bound);
			} catch (caught) {
				error = caught instanceof Error ? caught.message : String(caught);
			}
			requests.push(sim.control.requests().length);
			limited.push(proxy.rateLimited());
		}
		return {
			rows: config.rows,
			limitPerMinute,
			timeScale: scale,
			completed: completedRuns === config.runs,
			completedRuns,
			runs: config.runs,
			requests: median(requests),
			rateLimitedAnswers: median(limited),
			wallSimSeconds: round(median(walls), 2),
			boundSimSeconds: round(bound, 2),
			ratioVsBound: round(median(ratios), 3),
			ratios: ratios.map((r) => round(r, 3)),
			...(error ? { error } : {}),
		};
	} finally {
		await proxy.close();
		await sim.close();
	}
}
