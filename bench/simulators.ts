/** Starting simulators for the bench: a list of exactly N rows, with latency or a scaled clock. */
import { startRemoteSimulator, type BenchSimulator } from './remoteSim';
import type { SimProcessOptions } from './simProcess';
import type { ListTarget } from './target';

async function totalCount(sim: BenchSimulator, path: string): Promise<number> {
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
	options: SimProcessOptions = {},
): Promise<BenchSimulator> {
	let extra = calibrated.get(target.path) ?? rows;
	for (let attempt = 0; attempt < 8; attempt++) {
		const sim = await startRemoteSimulator({ ...options, dataSize: { [target.dataKey]: extra } });
		const total = await totalCount(sim, target.path);
		if (total === rows) {
			calibrated.set(target.path, extra);
			await sim.clearRequests();
			return sim;
		}
		await sim.close();
		extra += rows - total;
	}
	throw new Error(`Could not size ${target.path} to exactly ${rows} rows`);
}
