/**
 * Knowledge Hub Source → Create From URL as an AI tool: the tool variant's Wait Until Ready defaults to
 * Off, so a model gets the created (pending) source at once instead of a call held for minutes, which
 * MCP clients abandon after about a minute. The node variant keeps By Polling as its default.
 */
import type { IDataObject } from 'n8n-workflow';

import { ManualClock, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runToolCalls } from '../../n8n-harness/runTool';

let sim: RunningSimulator;
beforeEach(async () => {
	// Extraction takes a minute of the simulator's clock, which does not move here.
	sim = await startSimulator({
		clock: new ManualClock(),
		sourceTimings: { pendingMs: 60_000, processingMs: 60_000 },
	});
});
afterEach(async () => {
	await sim.close();
});

const createFromUrlTool = {
	resource: 'knowledgeHubSource',
	operation: 'createFromUrl',
	url: "={{ $fromAI('url', 'The web page to add', 'string') }}",
	title: "={{ $fromAI('title', 'Its title', 'string') }}",
};

test('as a tool, Create From URL returns the new source at once (Wait Until Ready defaults to Off)', async () => {
	const { answers, run } = await runToolCalls({
		parameters: createFromUrlTool,
		calls: [{ url: 'https://example.com/tool-pricing', title: 'Pricing' }],
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
	});
	expect(run.data.resultData.error).toBeUndefined();
	const source = (answers[0].answer as IDataObject[])[0];
	expect(source.is_new).toBe(true);
	expect(source.status).not.toBe('ready');
	const reads = sim.control
		.requests({ path: '/knowledge-hub/sources/*' })
		.filter((r) => r.method === 'GET');
	expect(reads).toHaveLength(0);
});
