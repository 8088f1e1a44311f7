/**
 * Counts the expressions n8n evaluates per request of Workspace → Get and per delivery to the Job
 * Trigger, and how many of them come from this package (its credential's authenticate block, its
 * parameters), and how many credential reads each costs. n8n's default expression engine sets up an isolate for each evaluation, so each one
 * weighs under load. Usage: `npx tsx bench/expressionCount.ts` (prints JSON).
 */
import '../n8n-harness/setupEnv';

import { Expression, type IDataObject } from 'n8n-workflow';

import { TestCredentialsHelper } from '../n8n-harness/credentialsHelper';
import { runNode } from '../n8n-harness/runNode';
import { TriggerEndpoint } from '../n8n-harness/webhookTrigger';
import { WebhookServer } from '../n8n-harness/webhookServer';
import { startSimulator } from '../simulator/index';

const evaluated: string[] = [];
const original = Expression.prototype.resolveSimpleParameterValue;
Expression.prototype.resolveSimpleParameterValue = function (
	this: Expression,
	...args: Parameters<typeof original>
) {
	if (typeof args[0] === 'string' && args[0].startsWith('=')) evaluated.push(args[0]);
	return original.apply(this, args);
};

// Credential reads: outside an execution n8n 2.x sets up an isolate for each one.
let credentialReads = 0;
const originalRead = TestCredentialsHelper.prototype.getDecrypted;
TestCredentialsHelper.prototype.getDecrypted = function (
	this: TestCredentialsHelper,
	...args: Parameters<typeof originalRead>
) {
	credentialReads++;
	return originalRead.apply(this, args);
};

/** Evaluations and credential reads during `work`, by where they come from. */
async function count(
	work: () => Promise<void>,
): Promise<{ all: number; authenticate: number; credentialReads: number }> {
	evaluated.length = 0;
	credentialReads = 0;
	await work();
	return {
		all: evaluated.length,
		authenticate: evaluated.filter((text) => text.startsWith('=Bearer')).length,
		credentialReads,
	};
}

async function main(): Promise<void> {
	const sim = await startSimulator({ jobTimings: { queuedMs: 0, processingMs: 0 } });
	const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	const ITEMS = 20;
	const perItem = await count(async () => {
		const { error } = await runNode({
			parameters: { resource: 'workspace', operation: 'get' },
			credentials,
			input: Array.from({ length: ITEMS }, () => ({})),
		});
		if (error) throw error;
	});

	const server = new WebhookServer();
	await server.start();
	const trigger = new TriggerEndpoint(server, {
		nodeType: 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger',
		parameters: { authentication: 'headerSecret', confirmWithApi: true },
		credentials: {
			workspacePracticeApi: credentials,
			workspacePracticeWebhookSecretApi: {
				headerName: 'X-Webhook-Secret',
				secret: 's3cret-value-for-bench-0123456789',
			},
		},
	});
	const { items } = await runNode({
		parameters: {
			resource: 'scenarioJob',
			operation: 'create',
			userEmail: sim.control.fixtures().members[0].email,
			prompt: 'A discovery call',
			waitForCompletion: 'off',
		},
		credentials,
		input: Array.from({ length: ITEMS }, () => ({})),
	});
	const ids = items.map((item) => String(item.json.id));
	for (const id of ids)
		if (sim.control.getJob(id)?.status !== 'completed') sim.control.finishJob(id);
	const deliveries = await count(async () => {
		for (const id of ids) {
			const res = await fetch(trigger.url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'X-Webhook-Secret': 's3cret-value-for-bench-0123456789',
				},
				body: JSON.stringify({ id }),
			});
			if (((await res.json()) as IDataObject).started !== true) throw new Error('not started');
		}
	});
	await server.close();
	await sim.close();
	const per = (n: number) => Math.round((n / ITEMS) * 100) / 100;
	console.log(
		JSON.stringify(
			{
				perRequest: {
					all: per(perItem.all),
					authenticate: per(perItem.authenticate),
					credentialReads: per(perItem.credentialReads),
				},
				perDelivery: {
					all: per(deliveries.all),
					authenticate: per(deliveries.authenticate),
					credentialReads: per(deliveries.credentialReads),
				},
				samples: ITEMS,
			},
			null,
			2,
		),
	);
}

void main();
