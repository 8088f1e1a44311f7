/**
 * Item 4: 1,000 input items through one operation (Workspace → Get: one GET per item) against the same
 * 1,000 GETs sent one after another by axios. Both sides wait the same injected latency per request,
 * so the ratio shows what n8n's engine and the node add per item.
 */
import { config } from '../config';
import { bareLoop, client } from '../baselines';
import { runOperation } from '../runOperation';
import { median, round, timed } from '../stats';
import { startRemoteSimulator } from '../remoteSim';

export interface PerItemFigures {
	items: number;
	latencyMs: number;
	operation: string;
	requests: number;
	nodeMs: number;
	bareClientMs: number;
	nodeMsPerItem: number;
	bareMsPerItem: number;
	ratioVsBareClient: number;
	ratios: number[];
}

export async function benchPerItem(): Promise<PerItemFigures> {
	const sim = await startRemoteSimulator({ latencyMs: config.perItemLatencyMs });
	try {
		const http = client(sim.baseUrl, sim.apiKey);
		// No rate limits on this simulator: pacing off, items in parallel as by default.
		const parameters = {
			resource: 'workspace',
			operation: 'get',
			batching: { requestsPerMinute: 0 },
		};
		const input = Array.from({ length: config.perItemCount }, (_, i) => ({ row: i }));
		// Warm-up of both sides (JIT, connections), not counted.
		await runOperation(sim, parameters, input.slice(0, 50));
		await bareLoop(http, '/workspace', 50);

		const nodeRuns: Array<{ ms: number; requests: number }> = [];
		const bareRuns: number[] = [];
		const ratios: number[] = [];
		for (let run = 0; run < config.runs; run++) {
			const node = async () => {
				await sim.clearRequests();
				const { result: items, ms } = await timed(() => runOperation(sim, parameters, input));
				if (items.length !== input.length)
					throw new Error(`Node returned ${items.length} items, expected ${input.length}`);
				nodeRuns.push({ ms, requests: (await sim.requests()).length });
				return ms;
			};
			const bare = async () => {
				const { result: ok, ms } = await timed(() => bareLoop(http, '/workspace', input.length));
				if (ok !== input.length) throw new Error(`Bare loop got ${ok} answers of ${input.length}`);
				bareRuns.push(ms);
				return ms;
			};
			// Alternating order, so drift on the shared machine hits both sides.
			let nodeMs: number;
			let bareMs: number;
			if (run % 2 === 0) {
				nodeMs = await node();
				bareMs = await bare();
			} else {
				bareMs = await bare();
				nodeMs = await node();
			}
			ratios.push(nodeMs / bareMs);
		}
		const nodeMs = median(nodeRuns.map((r) => r.ms));
		const bareMs = median(bareRuns);
		return {
			items: input.length,
			latencyMs: config.perItemLatencyMs,
			operation: 'Workspace → Get',
			requests: median(nodeRuns.map((r) => r.requests)),
			nodeMs: round(nodeMs, 1),
			bareClientMs: round(bareMs, 1),
			nodeMsPerItem: round(nodeMs / input.length, 3),
			bareMsPerItem: round(bareMs / input.length, 3),
			ratioVsBareClient: round(median(ratios), 3),
			ratios: ratios.map((r) => round(r, 3)),
		};
	} finally {
		await sim.close();
	}
}
