/**
 * How often the nodes make n8n read a credential. Each read is a database row decrypted and, outside
 * an execution (a webhook delivery), an expression isolate under n8n 2.x's default engine, so a read
 * per request and per delivery is what a load of many items or callbacks pays for.
 */
import type { IDataObject } from 'n8n-workflow';

import { TestCredentialsHelper } from '../../n8n-harness/credentialsHelper';
import { runNode } from '../../n8n-harness/runNode';
import { TriggerEndpoint } from '../../n8n-harness/webhookTrigger';
import { WebhookServer } from '../../n8n-harness/webhookServer';
import type { RunningSimulator } from '../../simulator';
import { bootJobSim, createParams, runJobNode } from '../jobs/jobTestKit';

const SECRET = 's3cret-value-for-tests-0123456789';

let sim: RunningSimulator;
let reads: jest.SpyInstance;

beforeEach(async () => {
	({ sim } = await bootJobSim());
	reads = jest.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
});
afterEach(async () => {
	reads.mockRestore();
	await sim.close();
});

/** Reads since the spy was last cleared, by credential type. */
function readsByType(): Record<string, number> {
	const out: Record<string, number> = {};
	for (const call of reads.mock.calls) out[String(call[2])] = (out[String(call[2])] ?? 0) + 1;
	return out;
}

describe('credential reads', () => {
	it('reads the API credential once per request, not again for authentication', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'workspace', operation: 'get' },
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			input: Array.from({ length: 5 }, () => ({})),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		// Every request still carries the key the credential's authenticate builds.
		const gets = sim.control.requests({ method: 'GET', path: '/workspace' });
		expect(gets).toHaveLength(5);
		expect(readsByType()).toEqual({ workspacePracticeApi: 5 });
	});

	it('reads each credential once per confirmed delivery to the Job Trigger', async () => {
		const server = new WebhookServer();
		await server.start();
		try {
			const trigger = new TriggerEndpoint(server, {
				nodeType: 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger',
				parameters: { authentication: 'headerSecret', confirmWithApi: true },
				credentials: {
					workspacePracticeApi: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
					workspacePracticeWebhookSecretApi: { headerName: 'X-Webhook-Secret', secret: SECRET },
				},
			});
			const { items, error } = await runJobNode(sim, {
				parameters: createParams(sim, { waitForCompletion: 'off' }),
			});
			expect(error).toBeUndefined();
			const id = String(items[0].json.id);
			sim.control.finishJob(id);
			reads.mockClear();

			const res = await fetch(trigger.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'X-Webhook-Secret': SECRET },
				body: JSON.stringify({ id }),
			});
			expect(((await res.json()) as IDataObject).started).toBe(true);
			expect(readsByType()).toEqual({
				workspacePracticeWebhookSecretApi: 1,
				workspacePracticeApi: 1,
			});
		} finally {
			await server.close();
		}
	});
});
