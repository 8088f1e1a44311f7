/** Starting simulators for the bench: a list of exactly N rows, with latency, limits or a scaled clock. */
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../simulator/index';
import type { ListTarget } from './target';

async function totalCount(sim: RunningSimulator, path: string): Promise<number> {
	const answer = await fetch(`${sim.baseUrl}${path}?page_size=1`, {
		headers: { Authorization: `Bearer ${sim.apiKey}` },
	});
	if (!answer.ok) throw new Error(`Probe of ${path} answered ${answer.status}`);
	const body = (await answer.json()) as { pagination: { total_count: number } };
	return body.pagination.total_count;
}

/** Extra generated rows that give exactly the wanted total, found once per list and reused. */
const calibrated = new Map<string, number>();

/**
 * The simulator's size option adds generated rows on top of the fixed seed, and some generated rows
 * are hidden from the default listing (archived ones): probe and adjust until the list holds exactly
 * `rows`, so "exactly 100 requests" means what it says.
 */
export async function startWithRows(
	target: ListTarget,
	rows: number,
	options: SimulatorOptions = {},
): Promise<RunningSimulator> {
	let extra = calibrated.get(target.path) ?? rows;
	for (let attempt = 0; attempt < 8; attempt++) {
		const sim = await startSimulator({ ...options, latencyMs: 0, rateLimits: false, dataSize: { [target.dataKey]: extra } });
		const total = await totalCount(sim, target.path);
		if (total === rows) {
			calibrated.set(target.path, extra);
			sim.control.clearRequests();
			sim.control.setLatency(options.latencyMs ?? 0);
			if (options.rateLimits) sim.control.setRateLimits(options.rateLimits);
			return sim;
		}
		await sim.close();
		extra += rows - total;
	}
	throw new Error(`Could not size ${target.path} to exactly ${rows} rows`);
}
