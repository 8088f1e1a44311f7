/**
 * The templates no other step runs, imported as a user does and run in a real n8n
 * (`--steps=templates`), each on a simulator of its own, with only their Settings changed (and a
 * schedule or manual trigger swapped for a Webhook of the same name, since n8n cannot start those on
 * demand through its API):
 * - scenarios-from-deals.json: three deals become three scenarios, each with its deal's request ID.
 * - job-callbacks-to-team.json: a job's callback assigns its scenario to the team named in Settings.
 * - knowledge-hub-watcher.json (n8n's own polls): a published page becomes one summary message.
 * - playbook-rollout-report.json: one chat message naming who practised, who is past due, and the
 *   tier change on the page's skill, and no new scenario job.
 * - practice-analytics-to-data-table.json (n8n 2.x only: 1.123's Data table node cannot find a table
 *   by name): the rows land in a Data table made through n8n's public API.
 * And, as imported (issue 49), what a stranger meets when a run finds nothing: the rollout report's
 * default title is a page of the workspace whose scenario is not built yet (its not-ready note posts),
 * a title no page has posts a note; the weekly tier digest in a quiet week posts one "no change"
 * message; the Knowledge Hub sync with no file in its folder outputs a note; the rollout report with
 * its chat URL still empty stops with an error naming Settings → chat_webhook_url (issue 57).
 * Every template is imported as a stranger does (`importAsStranger`): no credential the file names
 * exists here, so each node gets this run's credential as the set-up notes say.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { Execution } from '../../scripts/n8n/api';
import { n8nFilesFolder, pollCount, uniquePath, type SuiteContext } from '../context';
import { CheckError, expect, expectEqual, waitFor } from '../harness';
import { ChatStub } from '../support/chatStub';
import { exampleNode, importAsStranger, setSettings, type ExampleNode } from '../support/examples';
import { ownSimulator, type OwnSimulator } from '../support/toolResults';
import { JOB_TRIGGER_TYPE, POLL_TRIGGER_TYPE, webhookNode } from '../../scripts/n8n/workflows';

const DAY = 86_400_000;
const POLL_MS = 75_000;
const JOB_WEBHOOK_PATH = 'workspace-practice-job';
type Json = Record<string, unknown>;

async function finished(ctx: SuiteContext, workflowId: string, count: number): Promise<Execution> {
	return await waitFor(`execution ${count} of the workflow`, async () => {
		const list = await ctx.api.executions(workflowId);
		if (list.length < count) return undefined;
		const newest = list.reduce((a, b) => (Number(b.id) > Number(a.id) ? b : a));
		return newest.finished || newest.status === 'error' ? newest : undefined;
	});
}

/** Items a node output in the execution (its first output). */
function output(execution: Execution, node: string): Json[] {
	const run = execution.data?.resultData.runData[node]?.[0] as
		| { data?: { main?: Array<Array<{ json: Json }>> } }
		| undefined;
	return (run?.data?.main?.[0] ?? []).map((i) => i.json);
}

/** The example's trigger swapped for a Webhook of the same name at `path`. */
function webhookInstead(nodes: ExampleNode[], trigger: string, path: string): void {
	Object.assign(exampleNode(nodes, trigger), {
		...webhookNode(path),
		name: trigger,
		id: randomUUID(),
	});
}

/** Runs `body` with a simulator of its own and cleans up whatever it made. */
async function withOwn(
	ctx: SuiteContext,
	name: string,
	body: (own: OwnSimulator, cleanup: Array<() => Promise<unknown>>) => Promise<string>,
): Promise<string> {
	const own = await ownSimulator(ctx, name);
	const cleanup: Array<() => Promise<unknown>> = [];
	try {
		return await body(own, cleanup);
	} finally {
		for (const step of cleanup.reverse()) await step().catch(() => undefined);
		await own.sim.close();
	}
}

async function deals(ctx: SuiteContext): Promise<void> {
	await ctx.report.step('templates: scenarios-from-deals, three deals → three scenarios', () =>
		withOwn(ctx, 'deals template', async (own, cleanup) => {
			const { api } = ctx;
			const example = importAsStranger('scenarios-from-deals.json', {
				workspacePracticeApi: own.credential,
			});
			const path = uniquePath('deals');
			webhookInstead(example.nodes, 'Run for the deals list', path);
			const created = await api.createWorkflow(example.workflow);
			cleanup.push(() => api.deactivate(created.id));
			await api.activate(created.id);
			const res = await api.callWebhook(path);
			expect(res.status === 200, `n8n answered ${res.status} ${JSON.stringify(res.body)}`);
			const execution = await finished(ctx, created.id, 1);
			expectEqual(execution.status, 'success', 'execution status');
			const posts = own.sim.control.requests({ method: 'POST', path: '/scenario-studio/jobs' });
			expectEqual(
				posts.map((p) => (p.body as Json).request_id).sort(),
				['deal-D-1042', 'deal-D-1057', 'deal-D-1063'],
				'request IDs',
			);
			const lines = output(execution, 'List the scenarios to rehearse').map((r) => String(r.line));
			expectEqual(lines.length, 3, 'report lines');
			for (const line of lines) expect(line.includes('is ready for'), line);
			return lines.join(' | ');
		}),
	);
}

async function jobCallbacks(ctx: SuiteContext): Promise<void> {
	await ctx.report.step(
		'templates: job-callbacks-to-team, a callback assigns the scenario to the team in Settings',
		() =>
			withOwn(ctx, 'job callbacks template', async (own, cleanup) => {
				const { api } = ctx;
				const { control } = own.sim;
				const secret = `s-${randomUUID()}`;
				const secretCredential = await api.createCredential(
					'Workspace Practice callback secret (templates e2e)',
					'workspacePracticeWebhookSecretApi',
					{ headerName: 'X-Callback-Secret', secret },
				);
				const example = importAsStranger('job-callbacks-to-team.json', {
					workspacePracticeApi: own.credential,
					workspacePracticeWebhookSecretApi: {
						id: secretCredential.id,
						name: secretCredential.name,
					},
				});
				const trigger = exampleNode(example.nodes, 'Scenario job finished');
				expectEqual(trigger.type, JOB_TRIGGER_TYPE, 'trigger type');
				// A webhook ID of this run's own, so no other workflow in this n8n answers on it.
				trigger.webhookId = randomUUID();
				const created = await api.createWorkflow(example.workflow);
				cleanup.push(() => api.deactivate(created.id));
				await api.activate(created.id);
				const probe = await api.callWebhook(`${trigger.webhookId}/${JOB_WEBHOOK_PATH}`, {
					json: { id: 'no-such-job' },
				});
				expectEqual(probe.status, 401, 'a delivery without the secret');
				const res = await fetch(`${own.sim.baseUrl}/scenario-studio/jobs`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${own.sim.apiKey}`,
						'content-type': 'application/json',
					},
					body: JSON.stringify({
						user_email: 'carla@acme.com',
						prompt: 'Cold call to a hospital procurement lead',
						callback_url: `${ctx.n8n.webhookBaseUrl}/webhook/${trigger.webhookId}/${JOB_WEBHOOK_PATH}`,
						callback_headers: { 'X-Callback-Secret': secret },
					}),
				});
				const job = (await res.json()) as { id: string };
				control.finishJob(job.id);
				await control.waitForCallbacks();
				const execution = await finished(ctx, created.id, 1);
				expectEqual(execution.status, 'success', 'execution status');
				const sales = control.fixtures().groups.sales.id;
				const members = control.store.data.users
					.filter((u) => u.member && u.groupIds.includes(sales))
					.map((u) => u.email)
					.sort();
				const assigned = control
					.requests({ method: 'POST' })
					.filter((r) => r.path.endsWith('/assignments'))
					.map((r) => String((r.body as Json).user_email))
					.sort();
				expectEqual(assigned, members, 'assigned (the Sales Team, as Settings name it)');
				const lines = output(execution, 'Write the assignment line');
				expectEqual(lines.length, members.length, 'assignment lines');
				return `${assigned.length} assignments; "${String(lines[0]?.line)}"`;
			}),
	);
}

async function watcher(ctx: SuiteContext): Promise<void> {
	await ctx.report.step(
		'templates: knowledge-hub-watcher, a published page becomes one message',
		() =>
			withOwn(ctx, 'watcher template', async (own, cleanup) => {
				const { api } = ctx;
				const { control } = own.sim;
				const example = importAsStranger('knowledge-hub-watcher.json', {
					workspacePracticeApi: own.credential,
				});
				const name = `${example.workflow.name} ${randomUUID().slice(0, 8)}`;
				example.workflow.name = name;
				const trigger = exampleNode(example.nodes, 'New or published page');
				expectEqual(trigger.type, POLL_TRIGGER_TYPE, 'trigger type');
				// Read at every poll (0: no quota).
				trigger.parameters.options = { maxReadsPerDay: 0 };
				setSettings(example.nodes, { message_prefix: 'New in the hub' });
				const created = await api.createWorkflow(example.workflow);
				cleanup.push(() => api.deactivate(created.id));
				await api.activate(created.id);
				const polled = async (n: number) =>
					await waitFor(`n8n's poll #${n}`, async () => pollCount(ctx, name) >= n, {
						timeoutMs: POLL_MS,
						intervalMs: 500,
					});
				await polled(2);
				await new Promise((r) => setTimeout(r, 3000));
				const page = control.createPage({
					title: 'Pricing objections',
					content: '- Ask what it is compared with',
					asEmail: 'carla@acme.com',
				});
				control.publishPage(page.id, 'carla@acme.com');
				await polled(pollCount(ctx, name) + 1);
				const execution = await finished(ctx, created.id, 1);
				expectEqual(execution.status, 'success', 'execution status');
				const messages = output(execution, 'Message');
				// Created and published between two polls: one event each.
				const texts = messages.map((m) => String(m.text));
				expect(texts.length >= 1, `messages: ${JSON.stringify(texts)}`);
				for (const text of texts)
					expect(text.startsWith('New in the hub: "Pricing objections"'), text);
				return texts.join(' | ');
			}),
	);
}

async function rolloutReport(ctx: SuiteContext): Promise<void> {
	await ctx.report.step(
		'templates: playbook-rollout-report, one message: practised, past due, the tier change; no new job',
		() =>
			withOwn(ctx, 'rollout template', async (own, cleanup) => {
				const { api } = ctx;
				const { control } = own.sim;
				const chat = await ChatStub.start();
				cleanup.push(() => chat.close());
				const skill = control.fixtures().skills.objection;
				const published = Date.parse(control.now());
				for (const d of [20, 19, 18])
					control.addObservation({
						userEmail: 'bob@acme.com',
						skillId: skill.id,
						score: 35,
						at: published - d * DAY,
					});
				const title = `Objections on price ${randomUUID().slice(0, 6)}`;
				const page = control.createPage({
					title,
					content: '1. Ask what the price is compared with',
					skillIds: [skill.id],
					asEmail: 'carla@acme.com',
				});
				control.publishPage(page.id, 'carla@acme.com');
				// The job the playbook template makes for this publication, by the same request ID.
				const api2 = (path: string, body: Json) =>
					fetch(`${own.sim.baseUrl}${path}`, {
						method: 'POST',
						headers: {
							authorization: `Bearer ${own.sim.apiKey}`,
							'content-type': 'application/json',
						},
						body: JSON.stringify(body),
					}).then(async (r) => (await r.json()) as Json);
				const job = await api2('/scenario-studio/jobs', {
					user_email: 'carla@acme.com',
					prompt: 'A roleplay on the playbook',
					request_id: `playbook-${page.id}-v1`,
				});
				control.finishJob(String(job.id));
				const jobNow = (await (
					await fetch(`${own.sim.baseUrl}/scenario-studio/jobs/${String(job.id)}`, {
						headers: { authorization: `Bearer ${own.sim.apiKey}` },
					})
				).json()) as { scenario: { id: string } | null };
				const scenarioId = jobNow.scenario?.id;
				if (!scenarioId) throw new CheckError('the job made no scenario');
				const due = new Date(Date.parse(control.now()) + 7 * DAY).toISOString();
				for (const email of ['bob@acme.com', 'jane@acme.com'])
					await api2(`/scenarios/${scenarioId}/assignments`, { user_email: email, due_date: due });
				control.addAssignment({
					userEmail: 'erin@acme.com',
					scenario: scenarioId,
					status: 'past_due',
					dueDate: published - DAY,
				});
				await new Promise((r) => setTimeout(r, 1100));
				control.addSession({ userEmail: 'bob@acme.com', scenario: scenarioId, score: 88 });
				// Bob's practice on objection handling since publication: scored sessions on Pricing
				// Objection Drill (it evaluates the skill), so Get Tier Changes finds him from the sessions.
				for (let i = 0; i < 4; i++)
					control.addSession({
						userEmail: 'bob@acme.com',
						scenario: 'pricing-objection-drill',
						score: 96,
					});
				const example = importAsStranger('playbook-rollout-report.json', {
					workspacePracticeApi: own.credential,
				});
				const path = uniquePath('rollout');
				webhookInstead(example.nodes, 'Every Monday at 9', path);
				setSettings(example.nodes, {
					playbook_title: title,
					chat_webhook_url: `${chat.baseUrl}/rollout`,
				});
				const created = await api.createWorkflow(example.workflow);
				cleanup.push(() => api.deactivate(created.id));
				await api.activate(created.id);
				const jobsBefore = control.store.jobs.size;
				const res = await api.callWebhook(path);
				expect(res.status === 200, `n8n answered ${res.status} ${JSON.stringify(res.body)}`);
				const execution = await finished(ctx, created.id, 1);
				expectEqual(execution.status, 'success', 'execution status');
				expectEqual(control.store.jobs.size, jobsBefore, 'scenario jobs (none new)');
				const messages = await waitFor('the rollout message', async () =>
					chat.at('/rollout').length ? chat.at('/rollout') : undefined,
				);
				expectEqual(messages.length, 1, 'messages');
				const text = String((messages[0].body as Json).text);
				for (const want of [
					`Playbook rollout: "${title}"`,
					'assigned to 3, practised by 1.',
					'Practised: bob@acme.com (1 session, best 88)',
					'Past due: erin@acme.com',
					'Not practised yet: jane@acme.com',
					`Bob Jones: ${skill.name} needs work → proficient`,
				])
					expect(text.includes(want), `lacks "${want}": ${text}`);
				return text.split('\n').slice(1).join(' | ');
			}),
	);
}

async function analyticsTable(ctx: SuiteContext): Promise<void> {
	if (ctx.major !== 2) {
		ctx.report.skip(
			'templates: practice-analytics-to-data-table',
			'n8n 2.x only: the Data table node of 1.123 (v1) cannot find a table by name',
		);
		return;
	}
	await ctx.report.step(
		'templates: practice-analytics-to-data-table, every row the workflow made is in the Data table',
		() =>
			withOwn(ctx, 'analytics template', async (own, cleanup) => {
				const { api } = ctx;
				const { control } = own.sim;
				control.addSession({ userEmail: 'bob@acme.com', scenario: 'cold-call-opener', score: 77 });
				const tableName = `practice_weekly_${randomUUID().slice(0, 8)}`;
				const text = [
					'week_from',
					'kind',
					'member_email',
					'member_name',
					'subject',
					'best_rank',
					'tier',
				];
				const numbers = ['sessions', 'best_score', 'lift_percentage', 'score'];
				const table = await api.raw('/api/v1/data-tables', {
					method: 'POST',
					json: {
						name: tableName,
						columns: [
							...text.map((name) => ({ name, type: 'string' })),
							...numbers.map((name) => ({ name, type: 'number' })),
						],
					},
				});
				expect(
					table.status === 201 || table.status === 200,
					`create table: ${table.status} ${JSON.stringify(table.body)}`,
				);
				const tableId = String((table.body as Json).id);
				cleanup.push(() => api.raw(`/api/v1/data-tables/${tableId}`, { method: 'DELETE' }));
				const example = importAsStranger('practice-analytics-to-data-table.json', {
					workspacePracticeApi: own.credential,
				});
				const path = uniquePath('analytics');
				webhookInstead(example.nodes, 'Every Monday at 7', path);
				setSettings(example.nodes, { data_table_name: tableName });
				const created = await api.createWorkflow(example.workflow);
				cleanup.push(() => api.deactivate(created.id));
				await api.activate(created.id);
				const res = await api.callWebhook(path);
				expect(res.status === 200, `n8n answered ${res.status} ${JSON.stringify(res.body)}`);
				const execution = await finished(ctx, created.id, 1);
				expectEqual(execution.status, 'success', 'execution status');
				const made = [
					...output(execution, 'One row per participant'),
					...output(execution, 'One row per member and skill'),
				];
				const rows = await api.raw(`/api/v1/data-tables/${tableId}/rows?limit=250`, {
					method: 'GET',
				});
				const stored = ((rows.body as { data?: Json[] }).data ?? []) as Json[];
				const key = (r: Json) => `${String(r.kind)} ${String(r.member_email)} ${String(r.subject)}`;
				expectEqual(stored.map(key).sort(), made.map(key).sort(), 'rows in the table');
				const practice = stored.filter((r) => r.kind === 'practice');
				expect(
					practice.some((r) => r.member_email === 'bob@acme.com'),
					`bob's session today: ${JSON.stringify(practice)}`,
				);
				return `${stored.length} rows (${practice.length} practice) in "${tableName}"`;
			}),
	);
}

/** The rollout report, as imported (only the chat URL set), with a title no page has, and with no chat URL. */
async function rolloutAsImported(ctx: SuiteContext): Promise<void> {
	await ctx.report.step(
		'templates: playbook-rollout-report as imported, the not-ready note; a title no page has, its note; no chat URL, an error naming it',
		() =>
			withOwn(ctx, 'rollout as imported', async (own, cleanup) => {
				const { api } = ctx;
				const chat = await ChatStub.start();
				cleanup.push(() => chat.close());
				const texts: string[] = [];
				for (const [label, settings] of [
					['as imported', {}],
					['no such page', { playbook_title: 'No such playbook' }],
				] as Array<[string, Json]>) {
					const example = importAsStranger('playbook-rollout-report.json', {
						workspacePracticeApi: own.credential,
					});
					const path = uniquePath('rollout-imported');
					webhookInstead(example.nodes, 'Every Monday at 9', path);
					setSettings(example.nodes, { ...settings, chat_webhook_url: `${chat.baseUrl}/${path}` });
					const created = await api.createWorkflow(example.workflow);
					cleanup.push(() => api.deactivate(created.id));
					await api.activate(created.id);
					const res = await api.callWebhook(path);
					expect(res.status === 200, `${label}: n8n answered ${res.status}`);
					const execution = await finished(ctx, created.id, 1);
					expectEqual(execution.status, 'success', `${label}: execution status`);
					const messages = await waitFor(`the ${label} note`, async () =>
						chat.at(`/${path}`).length ? chat.at(`/${path}`) : undefined,
					);
					texts.push(String((messages[0].body as Json).text));
				}
				expect(
					/^Playbook rollout, "Pricing objection guide": the scenario is not ready yet \(job \w+, (queued|processing)\)\.$/.test(
						texts[0],
					),
					`as imported: ${texts[0]}`,
				);
				expect(
					texts[1].startsWith('Playbook rollout: no published page is titled "No such playbook"'),
					texts[1],
				);
				// Issue 57: before the chat URL is set, the run stops naming the setting (a placeholder
				// host had failed with n8n's "incorrect host (domain)" alone).
				const bare = importAsStranger('playbook-rollout-report.json', {
					workspacePracticeApi: own.credential,
				});
				const barePath = uniquePath('rollout-no-chat');
				webhookInstead(bare.nodes, 'Every Monday at 9', barePath);
				const made = await api.createWorkflow(bare.workflow);
				cleanup.push(() => api.deactivate(made.id));
				await api.activate(made.id);
				await api.callWebhook(barePath);
				const failed = await finished(ctx, made.id, 1);
				expectEqual(failed.status, 'error', 'no chat URL: execution status');
				const message = String(failed.data?.resultData.error?.message ?? '');
				expect(
					message.startsWith('Settings → chat_webhook_url is empty'),
					`no chat URL: the error does not name the setting: ${message.slice(0, 300)}`,
				);
				texts.push(message.slice(0, 60));
				return texts.join(' | ');
			}),
	);
}

/** The weekly tier digest on a workspace with no change this week: one message says so. */
async function quietWeek(ctx: SuiteContext): Promise<void> {
	await ctx.report.step(
		'templates: weekly-tier-digest in a quiet week posts "no tier changed"',
		() =>
			withOwn(ctx, 'quiet week', async (own, cleanup) => {
				const { api } = ctx;
				const chat = await ChatStub.start();
				cleanup.push(() => chat.close());
				const example = importAsStranger('weekly-tier-digest.json', {
					workspacePracticeApi: own.credential,
				});
				const path = uniquePath('quiet-week');
				webhookInstead(example.nodes, 'Every Monday', path);
				setSettings(example.nodes, { chat_webhook_url: `${chat.baseUrl}/quiet` });
				const created = await api.createWorkflow(example.workflow);
				cleanup.push(() => api.deactivate(created.id));
				await api.activate(created.id);
				const res = await api.callWebhook(path);
				expect(res.status === 200, `n8n answered ${res.status}`);
				const execution = await finished(ctx, created.id, 1);
				expectEqual(execution.status, 'success', 'execution status');
				const messages = await waitFor('the quiet-week message', async () =>
					chat.at('/quiet').length ? chat.at('/quiet') : undefined,
				);
				expectEqual(messages.length, 1, 'messages');
				const text = String((messages[0].body as Json).text);
				expect(text.startsWith('Skill tiers this week: no tier changed in any team'), text);
				return text;
			}),
	);
}

/** The Knowledge Hub sync with a folder that holds no Markdown file: its note, nothing synced. */
async function syncNoFiles(ctx: SuiteContext): Promise<void> {
	await ctx.report.step('templates: knowledge-hub-sync with no file in its folder says so', () =>
		withOwn(ctx, 'sync no files', async (own, cleanup) => {
			const { api } = ctx;
			const folder = join(
				n8nFilesFolder(ctx.n8n.userFolder),
				`wsp-e2e-empty-${randomUUID().slice(0, 8)}`,
			);
			mkdirSync(folder, { recursive: true });
			cleanup.push(async () => rmSync(folder, { recursive: true, force: true }));
			const example = importAsStranger('knowledge-hub-sync.json', {
				workspacePracticeApi: own.credential,
			});
			const path = uniquePath('sync-empty');
			webhookInstead(example.nodes, 'Every 6 hours', path);
			setSettings(example.nodes, { markdown_files: `${folder}/*.md` });
			const created = await api.createWorkflow(example.workflow);
			cleanup.push(() => api.deactivate(created.id));
			await api.activate(created.id);
			const res = await api.callWebhook(path);
			expect(res.status === 200, `n8n answered ${res.status}`);
			const execution = await finished(ctx, created.id, 1);
			expectEqual(execution.status, 'success', 'execution status');
			const notes = output(execution, 'Write the no-files note').map((n) => String(n.line));
			expectEqual(notes.length, 1, 'notes');
			expect(notes[0].startsWith('No file matches markdown_files'), notes[0]);
			expectEqual(
				own.sim.control.requests({}).filter((r) => r.path.startsWith('/knowledge-hub')).length,
				0,
				'Knowledge Hub requests',
			);
			return notes[0];
		}),
	);
}

export async function templateSteps(ctx: SuiteContext): Promise<void> {
	if (!ctx.packageNodeTypes.includes(POLL_TRIGGER_TYPE)) {
		ctx.report.skip('templates', `${POLL_TRIGGER_TYPE} is not in the package yet`);
		return;
	}
	// The watcher waits for n8n's polls: the others run meanwhile.
	const polls = watcher(ctx);
	await deals(ctx);
	await jobCallbacks(ctx);
	await rolloutReport(ctx);
	await rolloutAsImported(ctx);
	await quietWeek(ctx);
	await syncNoFiles(ctx);
	await analyticsTable(ctx);
	await polls;
}
