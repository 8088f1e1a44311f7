/**
 * The demo's second half (scripts/demo.ts): the loop from a playbook to a practised skill. A Markdown
 * playbook synced into the Knowledge Hub, the playbook example turning its publication into a scenario
 * assigned to the team, a practice event, and who moved a skill tier, per team.
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';
import { join } from 'node:path';

import { PollHarness } from '../n8n-harness/pollHarness';
import { runNode } from '../n8n-harness/runNode';
import { readWorkflowFile, runWorkflow } from '../n8n-harness/runWorkflow';
import type { RunningSimulator } from '../simulator';
import { eventLabel, rankLabel, scenarioLabel } from './demoWords';

const EXAMPLES = join(__dirname, '..', 'examples');
const DAY = 86_400_000;
const dim = (s: string): string => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const bold = (s: string): string => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const say = (s = ''): void => console.log(s);

function fail(what: string, error?: string): never {
	throw new Error(`${what}${error ? `: ${error}` : ''}`);
}

const PLAYBOOK_TITLE = 'Discovery with a CFO';
const PLAYBOOK = `## Before the call
- Read the last two earnings calls

## On the call
1. Ask what the board measures them on
2. Tie the pain to one of those numbers
3. Agree the next step with a date
`;

/** 4. Knowledge Hub → Create or Update from a Markdown file: created, then unchanged. */
export async function knowledgeHubSync(sim: RunningSimulator, step: number): Promise<void> {
	const file = readWorkflowFile(join(EXAMPLES, 'knowledge-hub-sync.json'));
	say(bold(`${step}. ${file.name}`) + dim('  (examples/knowledge-hub-sync.json)'));
	const sync = file.nodes.find((n) => n.name === 'Sync page') as INode;
	const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	// As Read Files From Disk gives it: the file's name in the JSON, its content under "data".
	const input = [
		{
			fileName: `${PLAYBOOK_TITLE}.md`,
			$binary: {
				data: {
					data: Buffer.from(PLAYBOOK).toString('base64'),
					mimeType: 'text/markdown',
					fileName: `${PLAYBOOK_TITLE}.md`,
				},
			},
		},
	];
	for (const round of ['first run', 'same file again']) {
		const { items, error } = await runNode({ parameters: sync.parameters, credentials, input });
		if (error) fail('the sync failed', error.message);
		const page = items[0].json;
		say(
			`   ${round}: "${String(page.title)}" → ${String(page.sync_result)} (status ${String(page.status)}, v${String(page.version)})`,
		);
	}
	say();
}

/** 5. The playbook example: Page Published → Create with the page as context → assign to the team. */
export async function playbookLoop(sim: RunningSimulator, step: number): Promise<void> {
	const file = readWorkflowFile(join(EXAMPLES, 'playbook-to-scenario.json'));
	say(bold(`${step}. ${file.name}`) + dim('  (examples/playbook-to-scenario.json)'));
	const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	const trigger = file.nodes.find((n) => n.name === 'Playbook published') as INode;
	const poller = new PollHarness({ parameters: trigger.parameters, credentials });
	const first = await poller.poll();
	if (first.error) fail('the first poll failed', first.error.message);
	const page = sim.control.createPage({
		title: 'Handling "we already have a vendor"',
		content: '- Ask what they would change about it\n- Offer a side-by-side pilot',
		asEmail: 'carla@acme.com',
	});
	sim.control.publishPage(page.id, 'carla@acme.com');
	say(`   carla@acme.com publishes "${page.title}"`);
	const second = await poller.poll();
	if (second.error) fail('the second poll failed', second.error.message);
	const events = second.items.map((i) => i.json);
	const run = await runWorkflow({
		file,
		credentials,
		startNode: trigger.name,
		triggerItems: events,
	});
	if (run.error) fail('the playbook workflow failed', run.error);
	const [job] = run.output('Scenario from the playbook');
	const post = sim.control.requests({ method: 'POST', path: '/scenario-studio/jobs' }).at(-1)
		?.body as IDataObject;
	const scenario = (job?.scenario ?? {}) as IDataObject;
	say(
		`   Page Published → job with the page as context (${String(post?.context ?? '').length} characters, "${String(post?.context ?? '').split('\n')[0]}") → ${String(job?.status)}: "${scenarioLabel(scenario.name, [post?.prompt])}"`,
	);
	const assigned = run.output('Assign the scenario');
	say(`   assigned to the Sales Team (${assigned.length}):`);
	for (const a of assigned)
		say(`     ${String((a.user as IDataObject | undefined)?.email ?? '?')}  (${String(a.status)})`);
	if (job?.status !== 'completed' || assigned.length === 0)
		fail('the playbook loop did not finish');
	say();
}

/** 6. Practice Results → Session Scored below 60, as the coach-alert example watches for. */
export async function practiceEvent(sim: RunningSimulator, step: number): Promise<void> {
	const file = readWorkflowFile(join(EXAMPLES, 'coach-alert-low-score.json'));
	say(bold(`${step}. ${file.name}`) + dim('  (examples/coach-alert-low-score.json, its trigger)'));
	const trigger = file.nodes.find((n) => n.name === 'Low score') as INode;
	const parameters = {
		...trigger.parameters,
		// Read at every poll here; in n8n the trigger spaces its reads to spare the daily quota.
		practiceOptions: { maxReadsPerDay: 0, openReadHours: 0 },
	};
	const poller = new PollHarness({
		parameters,
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
	});
	const first = await poller.poll();
	if (first.error) fail('the first practice poll failed', first.error.message);
	const scenario = sim.control.fixtures().scenarios.coldCall.id;
	sim.control.addSession({ userEmail: 'dev@acme.com', scenario, score: 42 });
	sim.control.addSession({ userEmail: 'erin@acme.com', scenario, score: 91 });
	say('   dev@acme.com scores 42 and erin@acme.com 91 on the cold call');
	const second = await poller.poll();
	if (second.error) fail('the second practice poll failed', second.error.message);
	for (const { json } of second.items) {
		const session = json.session as IDataObject;
		say(
			`   ${eventLabel(json.event)}: ${String((session.user as IDataObject).email)} scored ${String(session.score)}, ${rankLabel(session.rank)}: only the low score is an event`,
		);
	}
	if (second.items.length !== 1) fail(`expected 1 low-score event, got ${second.items.length}`);
	say();
}

/** 7. Skill → Get Tier Changes per team: what the weekly digest example posts. */
export async function tierDigest(sim: RunningSimulator, step: number): Promise<void> {
	const file = readWorkflowFile(join(EXAMPLES, 'weekly-tier-digest.json'));
	say(
		bold(`${step}. ${file.name}`) +
			dim('  (examples/weekly-tier-digest.json, its Get Tier Changes)'),
	);
	const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	const skill = (file.nodes.find((n) => n.name === 'Tier changes this week') as INode).parameters;
	// This week's practice: Bob gets good at negotiation, Carla slips.
	const now = Date.parse(sim.control.now());
	// Scored sessions on Renewal Negotiation (it evaluates Negotiation), d days back.
	for (const [who, score, daysAgo] of [
		['bob@acme.com', 40, [30, 28, 26]],
		['bob@acme.com', 98, [3, 2, 1, 0]],
		['carla@acme.com', 95, [30, 28, 26]],
		['carla@acme.com', 30, [3, 2, 1, 0]],
	] as Array<[string, number, number[]]>)
		for (const d of daysAgo)
			sim.control.addSession({
				userEmail: who,
				scenario: 'renewal-negotiation',
				score,
				lateByMs: Date.parse(sim.control.now()) - (now - d * DAY),
			});
	const groups = await runNode({
		parameters: { resource: 'group', operation: 'getAll', returnAll: true },
		credentials,
	});
	const before = sim.control.requests().length;
	for (const { json: group } of groups.items) {
		const { items, error } = await runNode({
			parameters: {
				...skill,
				filters: { ...(skill.filters as INodeParameters), group_ids: String(group.id) },
			},
			credentials,
		});
		if (error) fail('Get Tier Changes failed', error.message);
		if (items.length === 0) continue;
		say(`   ${String(group.name)} (${items.length} change${items.length === 1 ? '' : 's'}):`);
		for (const { json } of items.slice(0, 4))
			say(`     ${String(json.direction)}  ${String(json.summary)}`);
		if (items.length > 4) say(dim(`     … and ${items.length - 4} more`));
	}
	say(
		dim(`   ${sim.control.requests().length - before} API reads for ${groups.items.length} teams`),
	);
	say();
}

/** 8. The trigger's third family: Skill Tiers → Tier Changed, once per moved tier. */
export async function tierTrigger(sim: RunningSimulator, step: number): Promise<void> {
	say(bold(`${step}. Skill Tiers trigger: Tier Changed`) + dim('  (Trigger On: Skill Tiers)'));
	const objection = sim.control.fixtures().skills.objection.id;
	const poller = new PollHarness({
		parameters: {
			triggerOn: 'skillTiers',
			skillTierEvents: ['tierChanged'],
			skillTierSkills: [objection],
			skillTierFilters: { exclude_system_users: true },
			// Read at every poll here; by default it reads at most once a day (Max Reads a Day 1).
			skillTierOptions: { maxReadsPerDay: 0 },
		},
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
	});
	const first = await poller.poll();
	if (first.error) fail('the first tier poll failed', first.error.message);
	say(`   activated: first read → ${first.items.length} events (it records where tiers stand)`);
	// Practice stamped after the first read's instant (whole seconds) counts as a change.
	await new Promise((resolve) => setTimeout(resolve, 1100));
	// Scored sessions on Pricing Objection Drill (it evaluates objection handling).
	for (const score of [96, 94, 97, 95, 98])
		sim.control.addSession({
			userEmail: 'erin@acme.com',
			scenario: 'pricing-objection-drill',
			score,
		});
	for (const score of [62, 58, 65])
		sim.control.addSession({
			userEmail: 'bob@acme.com',
			scenario: 'pricing-objection-drill',
			score,
		});
	say(
		'   erin@acme.com has five strong sessions on objection handling, bob@acme.com three fair ones',
	);
	const second = await poller.poll();
	if (second.error) fail('the second tier poll failed', second.error.message);
	for (const { json } of second.items) say(`   ${eventLabel(json.event)}: ${String(json.summary)}`);
	if (second.items.length === 0) fail('no tier change was emitted');
	const third = await poller.poll();
	say(`   the next read → ${third.items.length} events`);
	if (third.items.length !== 0) fail('a tier change was emitted twice');
	say();
}
