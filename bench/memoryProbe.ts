/**
 * Peak memory of item 1, in a process of its own so the simulator's data and the other figures do not
 * count: loads the engine, runs Return All once against the URL given, prints one JSON line.
 * Arguments: <baseUrl> <apiKey> <resource> <operation>.
 */
import { runOperation } from './runOperation';

async function probe(): Promise<void> {
	const [baseUrl, apiKey, resource, operation] = process.argv.slice(2);
	// Load everything first with a one-row run, so "before" is the loaded engine's footprint.
	await runOperation({ baseUrl, apiKey }, { resource, operation, returnAll: false, limit: 1 });
	const rssBeforeMb = process.memoryUsage().rss / 1024 / 1024;
	const items = await runOperation(
		{ baseUrl, apiKey },
		// As item 1: no rate limits on this simulator, pacing off.
		{ resource, operation, returnAll: true, batching: { requestsPerMinute: 0 } },
	);
	const peakRssMb = process.resourceUsage().maxRSS / 1024;
	console.log(JSON.stringify({ items: items.length, rssBeforeMb, peakRssMb }));
}

probe().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
