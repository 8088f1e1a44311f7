/**
 * The workspace's day in a real n8n (issue 33), on a simulator of its own with the deployed day (1,000
 * requests) and the minute limit raised: a workflow spends 850 requests through the package, n8n's log
 * warns once at the 800th, naming the workflow; the rest of the day goes elsewhere (requests from outside
 * n8n), and the next execution fails at once with the 429 for the day: when it turns and what this n8n
 * process spent, by workflow. In queue mode each worker counts its own requests, so the log checked is
 * every process's.
 */
import { randomUUID } from 'node:crypto';

import { startSimulator } from '../../simulator';
import type { SuiteContext } from '../context';
import { uniquePath } from '../context';
import { CheckError, expect } from '../harness';
import {
	actionNode,
	chain,
	webhookNode,
	type CredentialRef,
	type Params,
} from '../../scripts/n8n/workflows';

const WARNING = 'Workspace Practice: this n8n process has sent 800 requests';

function spendWorkflow(name: string, path: string, credential: CredentialRef) {
	const split: Params = {
		id: randomUUID(),
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [200, 0],
		parameters: { fieldToSplitOut: 'body.items', options: {} },
	};
	const get = actionNode(
		'Workspace Practice',
		{
			resource: 'workspace',
			operation: 'get',
			// Pacing off: the day, not the minute, is under test.
			batching: { requestsPerMinute: 0, creationsPerMinute: 0 },
		},
		credential,
		[400, 0],
	);
	return chain(name, [webhookNode(path), split, get]);
}

export async function dayBudgetSteps(ctx: SuiteContext): Promise<void> {
	const { api, report, n8n } = ctx;
	const day = await startSimulator({
		rateLimits: { perMinute: 1_000_000, createsPerMinute: 1000 },
	});
	const ids: string[] = [];
	try {
		const credential = await api.createCredential(
			'Workspace Practice (day budget)',
			'workspacePracticeApi',
			{ baseUrl: day.baseUrl, apiKey: day.apiKey },
		);
		const logs = () => n8n.processNames.map((name) => n8n.log(name)).join('\n');
		const run = async (name: string, items: number) => {
			const path = uniquePath('day-budget');
			const workflow = await api.createWorkflow(spendWorkflow(name, path, credential));
			ids.push(workflow.id);
			await api.activate(workflow.id);
			const res = await api.callWebhook(path, {
				json: { items: Array.from({ length: items }, (_, i) => ({ i })) },
			});
			return { workflow, res };
		};

		const alertsName = `e2e day budget alerts ${Date.now().toString(36)}`;
		let alertsId = '';
		await report.step(
			"day budget: n8n's log warns once when this process passes 80% of the day, by workflow",
			async () => {
				const before = logs().split(WARNING).length - 1;
				const { workflow, res } = await run(alertsName, 850);
				alertsId = workflow.id;
				expect(res.status === 200, `850 reads answered, got HTTP ${res.status}`);
				expect(
					day.control.rateLimitUsage().day === 850,
					`the simulator counted ${day.control.rateLimitUsage().day} of the day, expected 850`,
				);
				// The log is written asynchronously: give it a moment.
				const deadline = Date.now() + 5000;
				let text = logs();
				while (text.split(WARNING).length - 1 === before && Date.now() < deadline) {
					await new Promise((r) => setTimeout(r, 200));
					text = logs();
				}
				const lines = text.split('\n').filter((l) => l.includes(WARNING));
				expect(lines.length - before === 1, `one warning, found ${lines.length - before}`);
				const line = lines[lines.length - 1];
				expect(
					line.includes(`"${alertsName}" (${workflow.id}) 800`),
					`the warning names the workflow and its 800: ${line.slice(0, 400)}`,
				);
				expect(!text.includes(day.apiKey), 'the API key is never logged');
				return line.slice(
					line.indexOf('Workspace Practice:'),
					line.indexOf('Workspace Practice:') + 300,
				);
			},
		);

		await report.step(
			'day budget: the 429 for the day fails at once, says when the day turns and who spent it',
			async () => {
				// The rest of the day spent outside n8n (another tool on the same workspace).
				for (let i = 0; i < 150; i++)
					await fetch(`${day.baseUrl}/workspace`, {
						headers: { Authorization: `Bearer ${day.apiKey}` },
					});
				expect(
					day.control.rateLimitUsage().day === 1000,
					`the day is full: ${day.control.rateLimitUsage().day}`,
				);
				const digestName = `e2e day budget digest ${Date.now().toString(36)}`;
				const started = Date.now();
				const { workflow } = await run(digestName, 3);
				const [execution] = await api.executions(workflow.id);
				const error = execution?.data?.resultData.error as
					| { message?: string; description?: string }
					| undefined;
				if (!error) throw new CheckError('the execution did not fail');
				expect(Date.now() - started < 30_000, 'refused at once, not waited on');
				const message = error.message ?? '';
				expect(
					/^Rate limit reached \[429 rate_limited\]: the workspace's requests for the day are used up until \d{4}-/.test(
						message,
					),
					`the message says when the day turns: ${message}`,
				);
				const description = error.description ?? '';
				// In queue mode the digest may run on the other worker, which spent nothing on this key.
				expect(
					(ctx.queueMode && description.includes('This n8n process sent no request on this key')) ||
						description.includes(
							`This n8n process sent 850 of them on this key in the last 24 hours: "${alertsName}" (${alertsId}) 850`,
						),
					`the description names what this process spent: ${description}`,
				);
				return message;
			},
		);
	} finally {
		for (const id of ids) {
			await api.deactivate(id).catch(() => undefined);
			await api.deleteWorkflow(id).catch(() => undefined);
		}
		await day.close();
	}
}
