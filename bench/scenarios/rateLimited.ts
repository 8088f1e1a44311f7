/**
 * Item 2: Return All over 10,000 rows with the 60-a-minute limit on. The simulator's clock runs
 * `rateLimitTimeScale` times faster than real time (a proxy scales Retry-After to match), so the minute
 * the limit waits out lasts a few seconds.
 *
 * The bound the limit sets, for N requests at L a rolling minute: request i cannot start before request
 * i − L started plus a minute, so the last one starts no earlier than floor((N − 1) / L) minutes after
 * the requests left over after the last full window could have gone out unhindered. That head start is
 * measured, not guessed: each limited run is paired with an unlimited run of the same node just before.
 */
import { config } from '../config';
import { runOperation } from '../runOperation';
import { startScalingProxy } from '../scaledTime';
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
	/** All in the service's (simulated) seconds. */
	wallSimSeconds: number;
	unlimitedSimSeconds: number;
	boundSimSeconds: number;
	ratioVsBound: number;
	ratios: number[];
	error?: string;
}

export async function benchRateLimited(target: ListTarget): Promise<RateLimitedFigures> {
	const scale = config.rateLimitTimeScale;
	const realLatencyMs = Math.max(1, Math.round(config.latencyMs / scale));
	const sim = await startWithRows(target, config.rows, {
		timeScale: scale,
		latencyMs: realLatencyMs,
	});
	const proxy = await startScalingProxy(sim.baseUrl, scale);
	const endpoint = { baseUrl: proxy.baseUrl, apiKey: sim.apiKey };
	// Pacing counts real minutes and this service's minute lasts 6 s: what is measured here is the
	// node's 429 handling, so pacing is off.
	const parameters = {
		resource: target.resource,
		operation: target.operation,
		returnAll: true,
		batching: { requestsPerMinute: 0 },
	};
	const perMinute = config.rateLimitPerMinute;
	const toSim = (ms: number): number => (ms * scale) / 1000;
	try {
		await runOperation(endpoint, { ...parameters, returnAll: false, limit: 1 }); // warm-up
		const walls: number[] = [];
		const unlimited: number[] = [];
		const bounds: number[] = [];
		const ratios: number[] = [];
		const requests: number[] = [];
		const limited: number[] = [];
		let completedRuns = 0;
		let error: string | undefined;
		for (let run = 0; run < config.runs; run++) {
			await sim.setRateLimits(false);
			const free = await timed(() => runOperation(endpoint, parameters));
			const pages = Math.ceil(free.result.length / 100);
			// Windows of L requests are filled at once; the rest follows the unhindered pace.
			const fullWindows = Math.floor((pages - 1) / perMinute);
			const bound = fullWindows * 60 + (toSim(free.ms) * (pages - fullWindows * perMinute)) / pages;

			await sim.setRateLimits({ perMinute, perDay: 1_000_000, createsPerMinute: 10 });
			await sim.clearRequests();
			proxy.resetCounts();
			try {
				const { result: items, ms } = await timed(() => runOperation(endpoint, parameters));
				if (items.length === config.rows) completedRuns++;
				else error = `returned ${items.length} rows of ${config.rows}`;
				walls.push(toSim(ms));
				unlimited.push(toSim(free.ms));
				bounds.push(bound);
				ratios.push(toSim(ms) / bound);
			} catch (caught) {
				error = caught instanceof Error ? caught.message : String(caught);
			}
			requests.push((await sim.requests()).length);
			limited.push(proxy.rateLimited());
		}
		return {
			rows: config.rows,
			limitPerMinute: perMinute,
			timeScale: scale,
			completed: completedRuns === config.runs,
			completedRuns,
			runs: config.runs,
			requests: median(requests),
			rateLimitedAnswers: median(limited),
			wallSimSeconds: round(median(walls), 2),
			unlimitedSimSeconds: round(median(unlimited), 2),
			boundSimSeconds: round(median(bounds), 2),
			ratioVsBound: round(median(ratios), 3),
			ratios: ratios.map((r) => round(r, 3)),
			...(error ? { error } : {}),
		};
	} finally {
		await proxy.close();
		await sim.close();
	}
}
