import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { runNode } from '../../n8n-harness/runNode';
import { PROBE_NODE_TYPE } from '../../n8n-harness/transportProbe';
import { startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';

/**
 * The workspace's day through the engine, against the simulator's day window (1,000 requests; the
 * minute limit raised so that only the day counts): the log warns once when this process passes 80%
 * of the day, by workflow, and the 429 for the day says when the day turns and who spent it.
 */
let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({ rateLimits: { perMinute: 1_000_000, createsPerMinute: 1000 } });
});
afterAll(async () => await sim.close());

const alerts = { id: 'wf-alerts', name: 'Coach alerts' };
const sync = { id: 'wf-sync', name: 'Nightly sync' };

/** One execution of `workflow` sending `n` GET /workspace through the transport. */
async function spend(workflow: { id: string; name: string }, n: number) {
	return await runNode({
		nodeType: PROBE_NODE_TYPE,
		parameters: { method: 'GET', path: '/workspace' },
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		input: Array.from({ length: n }, () => ({})),
		workflow,
	});
}

const ours = (calls: unknown[][]) =>
	calls.map((call) => String(call[0])).filter((text) => text.startsWith('Workspace Practice:'));

test('80% of the day warns once in the log, by workflow; the 429 for the day says when it turns and who spent it', async () => {
	const warn = jest.spyOn(Container.get(Logger), 'warn').mockImplementation(() => {});
	try {
		expect((await spend(alerts, 700)).error).toBeUndefined();
		expect(ours(warn.mock.calls)).toEqual([]);

		expect((await spend(sync, 150)).error).toBeUndefined();
		const warnings = ours(warn.mock.calls);
		expect(warnings).toHaveLength(1);
		// Passed at the 800th request: 700 of the alerts, then the sync's 100th.
		expect(warnings[0]).toContain('has sent 800 requests in the last 24 hours');
		expect(warnings[0]).toContain('80% of the workspace');
		expect(warnings[0]).toContain('"Coach alerts" (wf-alerts) 700, "Nightly sync" (wf-sync) 100');
		expect(warnings[0]).not.toContain(sim.apiKey);

		// Up to 999: no second warning.
		expect((await spend(sync, 149)).error).toBeUndefined();
		expect(ours(warn.mock.calls)).toHaveLength(1);

		const last = await spend(alerts, 3);
		const usage = sim.control.rateLimitUsage();
		expect(usage.day).toBe(1000);
		const refused = sim.control.requests({}).filter((r) => r.status === 429);
		expect(refused).toHaveLength(1);
		// The service's day turns a day after the oldest request it counts.
		const oldest = Math.min(...sim.control.requests({}).map((r) => Date.parse(r.at)));
		const turns =
			Date.parse(refused[0].at) +
			Math.ceil((oldest + 86_400_000 - Date.parse(refused[0].at)) / 1000) * 1000;
		const error = last.error!;
		expect(error.message).toMatch(/^Rate limit reached \[429 rate_limited\]: .*used up until /);
		const shown = /until (\S+)$/.exec(error.message)![1];
		expect(Math.abs(Date.parse(shown) - turns)).toBeLessThanOrEqual(1000);
		expect(error.description).toContain(`takes requests again at ${shown}`);
		expect(error.description).toContain(
			'This n8n process sent 1000 of them on this key in the last 24 hours: "Coach alerts" (wf-alerts) 701, "Nightly sync" (wf-sync) 299',
		);
		expect(error.description).not.toContain(sim.apiKey);
		// Refused at once, not waited on.
		expect(sim.control.requests({})).toHaveLength(1001);
	} finally {
		warn.mockRestore();
	}
});
