/**
 * Scenario Job → Create makes a callback URL that points at a Job Trigger unique per job, so a load
 * balancer hashing the request URI sends every repeat of one job to one webhook process.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunningSimulator } from '../../simulator';
import { apiCalls, bootJobSim, createParams, runJobNode } from './jobTestKit';

let sim: RunningSimulator;
beforeEach(async () => ({ sim } = await bootJobSim()));
afterEach(async () => await sim.close());

async function sentCallbackUrl(
	callbackUrl: string,
	options: INodeParameters = {},
): Promise<string> {
	const { error } = await runJobNode(sim, {
		parameters: createParams(sim, {
			waitForCompletion: 'off',
			additionalFields: { callbackUrl },
			options,
		}),
	});
	expect(error).toBeUndefined();
	return String((apiCalls(sim).at(-1)?.body as IDataObject).callback_url);
}

describe('Scenario Job → Create: callback URLs routed per job', () => {
	it("adds the job's request ID to a Job Trigger URL, keeping its query string", async () => {
		const base = 'https://n8n.example.com/webhook/4f1c/workspace-practice-job';
		const sent = await sentCallbackUrl(`${base}?team=sales`, {
			requestIdMode: 'custom',
			requestId: 'order 42/a',
		});
		const url = new URL(sent);
		expect(`${url.origin}${url.pathname}`).toBe(base);
		expect([...url.searchParams]).toEqual([
			['team', 'sales'],
			['wsp_job', 'order 42/a'],
		]);
		// The body's request_id is the same key the URL carries.
		expect((apiCalls(sim)[0].body as IDataObject).request_id).toBe('order 42/a');
	});

	it('gives each job its own URL without a request ID too', async () => {
		const base = 'https://n8n.example.com/webhook/4f1c/workspace-practice-job';
		const first = await sentCallbackUrl(base, { requestIdMode: 'none' });
		expect(new URL(first).searchParams.get('wsp_job')).toMatch(/^[0-9a-f-]{36}$/);
		const second = new URL(String(await sentCallbackUrl(base, { requestIdMode: 'none' })));
		expect(second.searchParams.get('wsp_job')).not.toBe(new URL(first).searchParams.get('wsp_job'));
	});

	it('leaves other callback URLs as given', async () => {
		const other = 'https://hooks.example.com/jobs/done?x=1';
		expect(await sentCallbackUrl(other)).toBe(other);
	});
});
