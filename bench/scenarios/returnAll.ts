/**
 * Item 1: Return All over 10,000 rows with 50 ms latency, against the HTTP Request node's sequential
 * page walk at page_size 50; and Limit 120. Pairs run back to back, in alternating order.
 */
import { config } from '../config';
import { client, sequentialPageWalk } from '../baselines';
import { runOperation } from '../runOperation';
import { startWithRows } from '../simulators';
import { median, round, timed } from '../stats';
import type { ListTarget } from '../target';
import type { BenchSimulator } from '../remoteSim';

export interface ListFigures {
	rows: number;
	requests: number;
	/** True when every run made the same number of requests. */
	requestsStable: boolean;
	nodeMs: number;
	baselineRequests: number;
	sequentialMs: number;
	ratioVsSequential: number;
	ratios: number[];
}

/** The node's query without paging, so the baseline asks for exactly the same rows. */
async function listQuery(sim: BenchSimulator, path: string): Promise<Record<string, string>> {
	const first = (await sim.requests({ method: 'GET', path }))[0];
	const query = { ...(first?.query ?? {}) };
	delete query.page;
	delete query.page_size;
	return query;
}

async function measure(
	sim: BenchSimulator,
	target: ListTarget,
	query: Record<string, string>,
	returnAll: boolean,
	limit: number,
	runs: number,
): Promise<ListFigures> {
	const http = client(sim.baseUrl, sim.apiKey);
	// The simulator has no rate limits here: pacing off, as a user would set it for such a service.
	const parameters = {
		resource: target.resource,
		operation: target.operation,
		returnAll,
		limit,
		batching: { requestsPerMinute: 0 },
	};
	const expected = returnAll ? config.rows : limit;
	const node: Array<{ ms: number; requests: number }> = [];
	const walk: Array<{ ms: number; requests: number }> = [];
	const ratios: number[] = [];
	for (let run = 0; run < runs; run++) {
		const runNodeOnce = async () => {
			await sim.clearRequests();
			const { result: items, ms } = await timed(() => runOperation(sim, parameters));
			if (items.length !== expected)
				throw new Error(`Node returned ${items.length} ${target.label}, expected ${expected}`);
			node.push({ ms, requests: (await sim.requests()).length });
			return ms;
		};
		const runWalkOnce = async () => {
			await sim.clearRequests();
			const { result, ms } = await timed(() =>
				sequentialPageWalk(
					http,
					target.path,
					query,
					config.baselinePageSize,
					returnAll ? Infinity : limit,
				),
			);
			if (result.rows !== expected)
				throw new Error(`Page walk got ${result.rows} rows, expected ${expected}`);
			walk.push({ ms, requests: result.requests });
			return ms;
		};
		// The node goes first on even runs and second on odd ones, so drift on the machine hits both sides.
		let nodeMs: number;
		let walkMs: number;
		if (run % 2 === 0) {
			nodeMs = await runNodeOnce();
			walkMs = await runWalkOnce();
		} else {
			walkMs = await runWalkOnce();
			nodeMs = await runNodeOnce();
		}
		ratios.push(nodeMs / walkMs);
	}
	const requestCounts = node.map((n) => n.requests);
	return {
		rows: expected,
		requests: median(requestCounts),
		requestsStable: requestCounts.every((n) => n === requestCounts[0]),
		nodeMs: round(median(node.map((n) => n.ms)), 1),
		baselineRequests: median(walk.map((w) => w.requests)),
		sequentialMs: round(median(walk.map((w) => w.ms)), 1),
		ratioVsSequential: round(median(ratios), 3),
		ratios: ratios.map((r) => round(r, 3)),
	};
}

export async function benchReturnAll(target: ListTarget): Promise<{
	returnAll: ListFigures & { latencyMs: number; floorRatio: number };
	limit120: ListFigures;
	endpoint: { baseUrl: string; apiKey: string };
	close: () => Promise<void>;
}> {
	const sim = await startWithRows(target, config.rows, { latencyMs: config.latencyMs });
	// Warm-up: loads n8n-core's code paths and opens connections; not counted. It also shows which
	// query the node sends, so the baseline asks for the same rows.
	await sim.clearRequests();
	await runOperation(sim, {
		resource: target.resource,
		operation: target.operation,
		returnAll: false,
		limit: 1,
	});
	const query = await listQuery(sim, target.path);
	await client(sim.baseUrl, sim.apiKey).get(target.path, { params: { ...query, page_size: 1 } });

	const returnAll = await measure(sim, target, query, true, 0, config.runs);
	const limit120 = await measure(sim, target, query, false, config.limit, config.runs);
	// With 100 rows a page and 4 pages in flight after the first: 1 + ceil(99 / 4) round trips against
	// 200 one after another. Latency dominates both, so this is the best ratio the design allows.
	const pages = Math.ceil(config.rows / 100);
	const floorRatio = round(
		(1 + Math.ceil((pages - 1) / 4)) / Math.ceil(config.rows / config.baselinePageSize),
		3,
	);
	return {
		returnAll: { ...returnAll, latencyMs: config.latencyMs, floorRatio },
		limit120,
		endpoint: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		close: () => sim.close(),
	};
}
