/**
 * The demo's parts (`npm run demo`, scripts/demo.ts): the first three here, the loop in
 * scripts/demoLoop.ts, the two reports in scripts/demoTemplates.ts; `DEMO_PARTS` lists them with what
 * each sends, and `runDemo` runs them in the workspaces scripts/demoPlan.ts gives them.
 */
import type { IDataObject, INode, INodeType } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { makeAdditionalData } from '../n8n-harness/additionalData';
import { TestCredentialsHelper } from '../n8n-harness/credentialsHelper';
import { PollHarness } from '../n8n-harness/pollHarness';
import {
	readWorkflowFile,
	runWorkflow,
	toWorkflow,
	type WorkflowFile,
} from '../n8n-harness/runWorkflow';
import { invokeWebhook } from '../n8n-harness/webhookCall';
import type { WebhookServer } from '../n8n-harness/webhookServer';
import { eventLabel, pageStateLabel, scenarioLabel } from './demoWords';
import { startSimulator, type RunningSimulator } from '../simulator';
import { knowledgeHubSync, playbookLoop, practiceEvent, tierDigest, tierTrigger } from './demoLoop';
import { analyticsToDataTable, playbookRolloutReport } from './demoTemplates';
import { KEY_BUDGET, planWorkspaces, type PartCost } from './demoPlan';

const EXAMPLES = join(__dirname, '..', 'examples');
const SECRET_HEADER = 'X-Webhook-Secret';
const SECRET = `demo-${randomUUID()}`;

const bold = (s: string): string => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string): string => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const say = (s = ''): void => console.log(s);

function nodeOf(file: WorkflowFile, type: string): INode {
	const node = file.nodes.find((n) => n.type === type);
	if (!node) throw new Error(`"${file.name}" has no ${type} node`);
	return node;
}

/** The prompts of the jobs the simulator was asked for: scenario names are cut from them. */
function prompts(sim: RunningSimulator): unknown[] {
	return sim.control
		.requests({ method: 'POST', path: '/scenario-studio/jobs' })
		.map((r) => (r.body as IDataObject | undefined)?.prompt);
}

function fail(what: string, error?: string): never {
	throw new Error(`${what}${error ? `: ${error}` : ''}`);
}

// ---------------------------------------------------------------------------------------------------
// 1. Ops create scenarios from a list of deals and wait for them.

async function scenariosFromDeals(sim: RunningSimulator): Promise<void> {
	const file = readWorkflowFile(join(EXAMPLES, 'scenarios-from-deals.json'));
	say(bold(`1. ${file.name}`) + dim('  (examples/scenarios-from-deals.json)'));
	say(dim('   Manual trigger → 3 deals → Scenario Job → Create, waiting By Polling'));
	const started = Date.now();
	const result = await runWorkflow({
		file,
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
	});
	if (result.error) fail('the deals workflow failed', result.error);
	const deals = result.output('One item per deal');
	const jobs = result.output('Create scenario and wait');
	if (jobs.length !== deals.length) fail(`expected ${deals.length} jobs, got ${jobs.length}`);
	jobs.forEach((job, i) => {
		const deal = deals[i];
		const scenario = (job.scenario ?? {}) as IDataObject;
		say(`   ${String(deal.deal_id)} ${String(deal.company)} (${String(deal.owner_email)})`);
		// Simplify (on) keeps created_at and completed_at; their difference is queued-to-done time.
		const seconds =
			(Date.parse(String(job.completed_at)) - Date.parse(String(job.created_at))) / 1000;
		say(
			`     job ${String(job.id)}: queued → ${String(job.status)} in ${Number.isFinite(seconds) ? seconds : '?'} s`,
		);
		say(`     scenario "${scenarioLabel(scenario.name, prompts(sim))}"`);
		say(dim(`     ${String(scenario.url ?? '')}`));
		if (job.status !== 'completed' || !scenario.id)
			fail(`deal ${String(deal.deal_id)}: the job did not complete`);
	});
	const polls = sim.control.requests({ method: 'GET', path: '/scenario-studio/jobs/*' }).length;
	say(
		dim(
			`   ${jobs.length} jobs, ${polls} status reads, ${Math.round((Date.now() - started) / 1000)} s`,
		),
	);
	say();
}

// ---------------------------------------------------------------------------------------------------
// 2. A team reacts to job callbacks through the job trigger.

async function jobCallbacks(sim: RunningSimulator, hooks: WebhookServer): Promise<void> {
	const file = readWorkflowFile(join(EXAMPLES, 'job-callbacks-to-team.json'));
	say(bold(`2. ${file.name}`) + dim('  (examples/job-callbacks-to-team.json)'));
	const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	const extraCredentials = {
		workspacePracticeWebhookSecretApi: { headerName: SECRET_HEADER, secret: SECRET },
	};
	const helper = new TestCredentialsHelper({
		...extraCredentials,
		workspacePracticeApi: { ...credentials },
	});
	// One workflow object for every delivery: the trigger's duplicate guard lives in its static data.
	const { workflow, data } = toWorkflow(file);
	const trigger = nodeOf(file, 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger');
	const triggerType = workflow.nodeTypes.getByNameAndVersion(
		trigger.type,
		trigger.typeVersion,
	) as INodeType;
	const description = triggerType.description.webhooks?.[0];
	if (!description) fail('the job trigger has no webhook');
	const path = `/webhook/${String(trigger.webhookId)}/${String(description.path)}`;
	const runs: Array<{ job: IDataObject; assigned: IDataObject[] }> = [];

	hooks.route(new RegExp(`^${path}$`), async (request) => {
		const { answer, result } = await invokeWebhook({
			workflow,
			node: workflow.getNode(trigger.name) as INode,
			additionalData: makeAdditionalData(helper, data, randomUUID()),
			mode: 'webhook',
			description,
			request,
		});
		if (result.workflowData) {
			const items = result.workflowData[0].map((item) => item.json);
			const run = await runWorkflow({
				file,
				credentials,
				extraCredentials,
				startNode: trigger.name,
				triggerItems: items,
			});
			if (run.error) fail('the job-callback workflow failed', run.error);
			runs.push({ job: items[0], assigned: run.output('Assign the new scenario') });
		}
		return answer;
	});
	const url = hooks.baseUrl + path;
	say(dim(`   Job Trigger at ${url} (secret header ${SECRET_HEADER})`));

	const createJob = async (headers: Record<string, string>): Promise<string> => {
		const res = await fetch(`${sim.baseUrl}/scenario-studio/jobs`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				user_email: 'jane@acme.com',
				prompt: 'Cold call to a hospital procurement lead who already has a vendor',
				callback_url: url,
				callback_headers: headers,
			}),
		});
		return ((await res.json()) as { id: string }).id;
	};
	const finish = async (jobId: string): Promise<number | null> => {
		sim.control.finishJob(jobId);
		await sim.control.waitForCallbacks();
		return (
			sim.control
				.callbacks()
				.filter((d) => d.jobId === jobId)
				.at(-1)?.status ?? null
		);
	};

	const jobId = await createJob({ [SECRET_HEADER]: SECRET });
	const status = await finish(jobId);
	const first = runs[0];
	if (status !== 200 || !first)
		fail(
			`the callback with the secret was answered ${String(status)} and started ${runs.length} runs`,
		);
	const scenario = (first.job.scenario ?? {}) as IDataObject;
	say(`   job ${jobId} completed → callback with the secret → ${status}, workflow started`);
	say(
		`     scenario "${scenarioLabel(scenario.name, prompts(sim))}" assigned to ${first.assigned.length} Sales Team members:`,
	);
	for (const a of first.assigned) {
		const user = (a.user ?? {}) as IDataObject;
		say(
			`       ${String(user.email ?? a.user_email ?? '?')}  due ${String(a.due_date ?? '').slice(0, 10)}  (${String(a.status ?? '')})`,
		);
	}
	const again = await sim.control.redeliverCallback(jobId);
	say(
		`   the same callback again → ${String(again.status)}, ${runs.length === 1 ? 'ignored as a duplicate' : 'STARTED AGAIN'}`,
	);
	if (runs.length !== 1) fail('a duplicate callback started a second run');
	const wrongJob = await createJob({ [SECRET_HEADER]: 'not-the-secret' });
	const wrongStatus = await finish(wrongJob);
	say(
		`   job ${wrongJob} with a wrong secret → ${String(wrongStatus)}, ${runs.length === 1 ? 'nothing started' : 'STARTED'}`,
	);
	if (wrongStatus !== 401 || runs.length !== 1)
		fail('a callback with a wrong secret was not refused');
	say();
}

// ---------------------------------------------------------------------------------------------------
// 3. A Knowledge Hub watcher reacts to new and published pages.

async function knowledgeHubWatcher(sim: RunningSimulator): Promise<void> {
	const file = readWorkflowFile(join(EXAMPLES, 'knowledge-hub-watcher.json'));
	say(bold(`3. ${file.name}`) + dim('  (examples/knowledge-hub-watcher.json)'));
	const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	const trigger = nodeOf(file, 'n8n-nodes-workspace-practice.workspacePracticeTrigger');
	const poller = new PollHarness({ parameters: trigger.parameters, credentials });

	const first = await poller.poll();
	if (first.error) fail('the first poll failed', first.error.message);
	say(`   activated: first poll → ${first.items.length} events (nothing from the past)`);

	const fx = sim.control.fixtures();
	const created = sim.control.createPage({
		title: 'Handling a budget freeze',
		content:
			'# When the buyer says "no budget this quarter"\n- ask what else was frozen\n- offer a pilot',
		asEmail: 'carla@acme.com',
	});
	sim.control.publishPage(fx.pages.draftNeverPublished.id, 'bob@acme.com');
	say(
		`   in the Knowledge Hub: carla@acme.com creates "${created.title}"; bob@acme.com publishes "${fx.pages.draftNeverPublished.name}"`,
	);

	const second = await poller.poll();
	if (second.error) fail('the second poll failed', second.error.message);
	const events = second.items.map((i) => i.json);
	say(`   next poll → ${events.length} events:`);
	for (const e of events)
		say(`     ${eventLabel(e.event)}: "${String((e.page as IDataObject | undefined)?.title)}"`);
	if (events.length < 2) fail(`expected at least 2 events, got ${events.length}`);

	const run = await runWorkflow({
		file,
		credentials,
		startNode: trigger.name,
		triggerItems: events,
	});
	if (run.error) fail('the watcher workflow failed', run.error);
	say('   the workflow read each page and made a message:');
	for (const m of run.output('Message')) {
		say(
			`     ${eventLabel(m.event)} · "${String(m.title)}" · ${pageStateLabel(m.status, m.version)} · owner ${String(m.owner)} · ${String(m.sources)} sources`,
		);
	}
	const third = await poller.poll();
	say(`   a poll with nothing new → ${third.items.length} events`);
	if (third.items.length !== 0) fail('a quiet poll emitted events again');
	say();
}

/** Jobs finish in about 2 s here (the real service takes minutes); callbacks are real HTTP posts. */
export const DEMO_SIMULATOR = { jobTimings: { queuedMs: 500, processingMs: 1500 } } as const;

interface DemoPart extends PartCost {
	run(sim: RunningSimulator, hooks: WebhookServer, step: number): Promise<void>;
}

/** The parts in order, each with the most it sends (scripts/demoPlan.ts); test/demo/demoPlan.test.ts holds them to it. */
export const DEMO_PARTS: readonly DemoPart[] = [
	// Measured: 6 (3 creations, 3 status reads a round); status reads back off, a slow machine adds a few.
	{ requests: 10, creations: 3, run: (sim) => scenariosFromDeals(sim) },
	// 10, its 2 jobs created by the demo itself (as the service's caller would), not the node.
	{ requests: 12, creations: 2, run: (sim, hooks) => jobCallbacks(sim, hooks) },
	{ requests: 7, creations: 0, run: (sim) => knowledgeHubWatcher(sim) },
	{ requests: 5, creations: 0, run: (sim, _, step) => knowledgeHubSync(sim, step) },
	// 12, one job waited on.
	{ requests: 14, creations: 1, run: (sim, _, step) => playbookLoop(sim, step) },
	{ requests: 4, creations: 0, run: (sim, _, step) => practiceEvent(sim, step) },
	{ requests: 14, creations: 0, run: (sim, _, step) => tierDigest(sim, step) },
	{ requests: 11, creations: 0, run: (sim, _, step) => tierTrigger(sim, step) },
	// 20, one job waited on.
	{
		requests: 24,
		creations: 2,
		run: (sim, hooks, step) => playbookRolloutReport(sim, hooks, step),
	},
	// 13; it reports the practice part 9 made.
	{
		requests: 14,
		creations: 0,
		sameWorkspaceAsPrevious: true,
		run: (sim, _, step) => analyticsToDataTable(sim, step),
	},
];

/** Requests each part sent, by part; a workspace per group of parts planWorkspaces makes. */
export async function runDemo(
	hooks: WebhookServer,
	parts: readonly DemoPart[] = DEMO_PARTS,
): Promise<number[]> {
	const sent: number[] = [];
	const plan = planWorkspaces(parts);
	for (const [w, indexes] of plan.entries()) {
		const sim = await startSimulator(DEMO_SIMULATOR);
		try {
			if (w > 0) {
				const before = plan[w - 1];
				const spent = before.reduce((sum, i) => sum + sent[i], 0);
				say(
					dim(
						`Parts ${before[0] + 1} to ${before.at(-1)! + 1} sent ${spent} requests with one API key, which gets ${KEY_BUDGET.requests} a minute under the nodes' pace: parts ${indexes[0] + 1} to ${indexes.at(-1)! + 1} use another workspace and key (${sim.baseUrl}) instead of waiting for the minute to clear.`,
					),
				);
				say();
			}
			for (const i of indexes) {
				const before = sim.control.requests().length;
				await parts[i].run(sim, hooks, i + 1);
				sent[i] = sim.control.requests().length - before;
			}
		} finally {
			await sim.close();
		}
	}
	return sent;
}
