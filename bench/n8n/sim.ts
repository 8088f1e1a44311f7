/**
 * The simulator in a child process of its own (bench/remoteSim.ts), with the control calls this bench
 * needs. The n8n under test reaches it over HTTP like the real service.
 */
import type { SimProcessOptions } from '../simProcess';
import { startRemoteSimulator, type BenchSimulator } from '../remoteSim';

export type SimChild = BenchSimulator;
export const startSim = startRemoteSimulator;

/** The simulator adds generated rows to its seed (some hidden): size it so the list holds exactly `rows`. */
export async function startSimWithScenarios(
	rows: number,
	options: SimProcessOptions = {},
): Promise<SimChild> {
	let extra = rows;
	for (let attempt = 0; attempt < 8; attempt++) {
		const sim = await startSim({ ...options, dataSize: { scenarios: extra } });
		const answer = await fetch(`${sim.baseUrl}/scenarios?page_size=1`, {
			headers: { Authorization: `Bearer ${sim.apiKey}` },
		});
		const total = ((await answer.json()) as { pagination: { total_count: number } }).pagination
			.total_count;
		if (total === rows) {
			await sim.clearRequests();
			return sim;
		}
		await sim.close();
		extra += rows - total;
	}
	throw new Error(`Could not size /scenarios to exactly ${rows} rows`);
}
