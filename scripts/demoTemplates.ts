/**
 * The demo's two report templates (scripts/demo.ts calls them last), run whole through n8n's engine
 * against the simulator: the playbook rollout report, after the playbook template has built and
 * assigned its scenario and the team has practised; and the weekly analytics into a Data table. n8n's
 * Data table node needs n8n's database, so the demo runs a stand-in that keeps the rows in memory
 * (n8n-harness/baseNodes.ts); the e2e suite runs the real node in n8n 2.x.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { join } from 'node:path';

import { dataTableRows } from '../n8n-harness/baseNodes';
import { PollHarness } from '../n8n-harness/pollHarness';
import { readWorkflowFile, runWorkflow, type WorkflowFile } from '../n8n-harness/runWorkflow';
import type { WebhookServer } from '../n8n-harness/webhookServer';
import type { RunningSimulator } from '../simulator';

const EXAMPLES = join(__dirname, '..', 'examples');
const DAY = 86_400_000;
const dim = (s: string): string => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const bold = (s: string): string => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const say = (s = ''): void => console.log(s);

function fail(what: string, error?: string): never {
	throw new Error(`${what}${error ? `: ${error}` : ''}`);
}

/** The template with its Settings changed, as a user edits the Settings node. */
export function withSettings(file: WorkflowFile, values: IDataObject): WorkflowFile {
	const nodes = file.nodes.map((node): INode => {
		if (node.name !== 'Settings') return node;
		const json = JSON.parse(String(node.parameters.jsonOutput)) as IDataObject;
		const jsonOutput = JSON.stringify({ ...json, ...values }, null, 2);
		return { ...node, parameters: { ...node.parameters, jsonOutput } };
	});
	return { ...file, nodes };
}

const triggerOf = (file: WorkflowFile): INode =>
	file.nodes.find((n) => n.type.endsWith('Trigger') || n.type.endsWith('trigger')) ??
	fail(`"${file.name}" has no trigger`);

/** The playbook template run on a page of the rollout: its scenario, assigned to the Sales Team. */
async function rolloutScenario(sim: RunningSimulator, pageId: string): Promise<void> {
	const file = readWorkflowFile(join(EXAMPLES, 'playbook-to-scenario.json'));
	const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	const trigger = triggerOf(file);
	const poller = new PollHarness({ parameters: trigger.parameters, credentials });
	const first = await poller.poll();
	if (first.error) fail('the first poll failed', first.error.message);
	sim.control.publishPage(pageId, 'carla@acme.com');
	const second = await poller.poll();
	if (second.error) fail('the second poll failed', second.error.message);
	const run = await runWorkflow({
		file,
		credentials,
		startNode: trigger.name,
		triggerItems: second.items.map((i) => i.json),
	});
	if (run.error) fail('the playbook template failed', run.error);
}

/** 9. The playbook rollout report, after the playbook went out and the team started practising. */
export async function playbookRolloutReport(
	sim: RunningSimulator,
	hooks: WebhookServer,
	step: number,
): Promise<void> {
	const template = readWorkflowFile(join(EXAMPLES, 'playbook-rollout-report.json'));
	say(bold(`${step}. ${template.name}`) + dim('  (examples/playbook-rollout-report.json)'));
	const { control } = sim;
	const skill = control.fixtures().skills.objection;
	const title = 'Objections on price';
	const published = Date.parse(control.now());
	// Before the playbook, Bob's objection handling needed work.
	for (const d of [20, 19, 18])
		control.addObservation({
			userEmail: 'bob@acme.com',
			skillId: skill.id,
			score: 35,
			at: published - d * DAY,
		});
	const page = control.createPage({
		title,
		content: '1. Ask what the price is compared with\n2. Tie the price to one outcome they named',
		skillIds: [skill.id],
		asEmail: 'carla@acme.com',
	});
	await rolloutScenario(sim, page.id);
	say(
		`   "${title}" (skill ${skill.name}) published; the playbook template built its scenario and assigned the Sales Team`,
	);
	// The simulator runs on a real clock here: what follows happens right after publication. Bob and
	// Jane practise the scenario, Bob also on calls; Erin holds an older assignment of it, now past due.
	const now = Date.parse(control.now());
	const scenarioId = String(
		(
			control
				.requests({ method: 'POST' })
				.filter((r) => r.path.endsWith('/assignments'))
				.at(-1) as { path: string }
		).path.split('/')[2],
	);
	control.addAssignment({
		userEmail: 'erin@acme.com',
		scenario: scenarioId,
		status: 'past_due',
		dueDate: now - DAY,
	});
	control.addSession({ userEmail: 'bob@acme.com', scenario: scenarioId, score: 88 });
	control.addSession({ userEmail: 'jane@acme.com', scenario: scenarioId, score: 64 });
	// A second on: the service's timestamps have second precision, and "since publication" starts there.
	await new Promise((resolve) => setTimeout(resolve, 1100));
	for (let i = 0; i < 4; i++)
		control.addObservation({
			userEmail: 'bob@acme.com',
			skillId: skill.id,
			score: 96,
			at: Date.parse(control.now()),
		});
	say(
		'   then bob@acme.com and jane@acme.com practise it (Bob also on calls); erin@acme.com holds an older assignment of it, past due',
	);

	const messages: string[] = [];
	hooks.route(/^\/chat\/rollout$/, async (request) => {
		messages.push(String((request.body as IDataObject).text));
		return { status: 200, body: { ok: true } };
	});
	const file = withSettings(template, {
		playbook_title: title,
		chat_webhook_url: `${hooks.baseUrl}/chat/rollout`,
	});
	const run = await runWorkflow({
		file,
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		startNode: triggerOf(file).name,
		triggerItems: [{}],
	});
	if (run.error) fail('the rollout report failed', run.error);
	const creations = control.requests({ method: 'POST', path: '/scenario-studio/jobs' }).length;
	if (messages.length !== 1) fail(`expected one chat message, got ${messages.length}`);
	say('   the report posted to chat (a local stand-in for the incoming webhook):');
	for (const line of messages[0].split('\n')) say(`     ${line}`);
	say(
		dim(
			`   scenario job requests so far: ${creations} (the report's one returned the existing job)`,
		),
	);
	say();
}

/** 10. Weekly practice analytics appended to a table (the Data table stand-in keeps the rows). */
export async function analyticsToDataTable(sim: RunningSimulator, step: number): Promise<void> {
	const file = readWorkflowFile(join(EXAMPLES, 'practice-analytics-to-data-table.json'));
	say(bold(`${step}. ${file.name}`) + dim('  (examples/practice-analytics-to-data-table.json)'));
	const run = await runWorkflow({
		file,
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		startNode: triggerOf(file).name,
		triggerItems: [{}],
	});
	if (run.error) fail('the analytics template failed', run.error);
	const rows = dataTableRows.get('practice_weekly') ?? [];
	const practice = rows.filter((r) => r.kind === 'practice');
	const tiers = rows.filter((r) => r.kind === 'tier');
	if (rows.length === 0) fail('no rows went into the table');
	say(
		`   ${rows.length} rows into "practice_weekly" (${practice.length} practice, ${tiers.length} tier) ${dim('(a stand-in keeps them in memory; in n8n 2.x they go to a Data table)')}`,
	);
	for (const r of [...practice.slice(0, 2), ...tiers.slice(0, 2)])
		say(
			`     ${String(r.kind).padEnd(8)} ${String(r.member_email).padEnd(18)} ${String(r.subject)}: ${
				r.kind === 'tier'
					? `${String(r.tier)} (${String(r.score)})`
					: `${String(r.sessions)} session(s), best ${String(r.best_score)}`
			}`,
		);
	say();
}
