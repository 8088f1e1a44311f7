/**
 * The two loop examples in a real n8n (`--steps=loop-examples`), each on a simulator of its own:
 * - examples/weekly-tier-digest.json: its Schedule Trigger swapped for a Webhook of the same name (a
 *   schedule cannot be started on demand), Post to chat pointed at a chat stub; one message per team
 *   with a tier change, each naming exactly the changes the simulator's state holds for that team.
 * - examples/playbook-to-scenario.json as imported: a page published after activation becomes one job
 *   whose context is the page (title and body), assigned to every member of the group; a quiet poll
 *   repeats nothing.
 */
import { randomUUID } from 'node:crypto';

import type { Execution } from '../../scripts/n8n/api';
import { proficiency } from '../../simulator/state/analytics';
import { pollCount, uniquePath, type SuiteContext } from '../context';
import { CheckError, expect, expectEqual, waitFor } from '../harness';
import { ChatStub } from '../support/chatStub';
import { exampleNode, loadExample, setSettings } from '../support/examples';
import { ownSimulator, type OwnSimulator } from '../support/toolResults';
import { POLL_TRIGGER_TYPE, webhookNode } from '../../scripts/n8n/workflows';

const DAY = 86_400_000;
const POLL_MS = 75_000;
type Json = Record<string, unknown>;

const TIER_WORDS: Record<string, string> = {
	excellent: 'excellent',
	proficient: 'proficient',
	developing: 'developing',
	needs_work: 'needs work',
	insufficient_data: 'no tier yet',
};

/** The run's newest finished execution, once there are `count`. */
async function finished(ctx: SuiteContext, workflowId: string, count: number): Promise<Execution> {
	return await waitFor(`execution ${count} of the workflow`, async () => {
		const list = await ctx.api.executions(workflowId);
		if (list.length < count) return undefined;
		const newest = list.reduce((a, b) => (Number(b.id) > Number(a.id) ? b : a));
		return newest.finished || newest.status === 'error' ? newest : undefined;
	});
}

/** Per team: "Full Name: Skill before → after" of every tier change between the two dates. */
function expectedPerTeam(own: OwnSimulator, from: number, to: number): Map<string, string[]> {
	const { store } = own.sim.control;
	const out = new Map<string, string[]>();
	for (const skill of store.data.skills) {
		const obs = store.data.observations.filter((o) => o.skillId === skill.id);
		const tiers = (asOf: number) =>
			new Map(proficiency(obs, asOf).map((p) => [p.userId, p.tier as string]));
		const before = tiers(from);
		for (const [userId, tier] of tiers(to)) {
			const user = store.userById(userId);
			const old = before.get(userId) ?? 'insufficient_data';
			if (!user?.member || old === tier || user.email.endsWith('@exec.com')) continue;
			for (const group of store.data.groups.filter((g) => user.groupIds.includes(g.id))) {
				const line = `${user.first_name} ${user.last_name}: ${skill.name} ${TIER_WORDS[old]} → ${TIER_WORDS[tier]}`;
				out.set(group.name, [...(out.get(group.name) ?? []), line]);
			}
		}
	}
	return out;
}

async function tierDigest(ctx: SuiteContext): Promise<void> {
	const { api, report } = ctx;
	let own: OwnSimulator | undefined;
	let chat: ChatStub | undefined;
	let workflowId = '';
	try {
		await report.step(
			'loop-examples: weekly tier digest, one chat message per team naming each tier change',
			async () => {
				own = await ownSimulator(ctx, 'tier digest');
				chat = await ChatStub.start();
				const { control } = own.sim;
				// Bob moves up, Carla down, Erin gets her first tier; Dev stays where he was.
				// Scored sessions on Renewal Negotiation (it evaluates Negotiation), d days back: Get Tier
				// Changes finds who practised from the sessions (calls alone need Read Every Member).
				for (const [who, score, days] of [
					['bob@acme.com', 40, [30, 28, 26]],
					['bob@acme.com', 98, [3, 2, 1]],
					['carla@acme.com', 95, [30, 28, 26]],
					['carla@acme.com', 30, [3, 2, 1]],
					['erin@acme.com', 92, [3, 2, 1]],
					['dev@acme.com', 80, [30, 28, 26, 2]],
					['support@exec.com', 92, [3, 2, 1]],
				] as Array<[string, number, number[]]>)
					for (const d of days)
						control.addSession({
							userEmail: who,
							scenario: 'renewal-negotiation',
							score,
							lateByMs: d * DAY,
						});
				const example = loadExample('weekly-tier-digest.json', {
					workspacePracticeApi: own.credential,
				});
				const path = uniquePath('tier-digest');
				const trigger = exampleNode(example.nodes, 'Every Monday');
				Object.assign(trigger, { ...webhookNode(path), name: 'Every Monday', id: randomUUID() });
				setSettings(example.nodes, { chat_webhook_url: `${chat.baseUrl}/digest` });
				const created = await api.createWorkflow(example.workflow);
				workflowId = created.id;
				await api.activate(created.id);
				const started = Date.now();
				const res = await api.callWebhook(path);
				expect(res.status === 200, `n8n answered ${res.status} ${JSON.stringify(res.body)}`);
				const execution = await finished(ctx, created.id, 1);
				expectEqual(execution.status, 'success', 'execution status');
				const want = expectedPerTeam(own, started - 7 * DAY, started);
				const stub = chat;
				const messages = await waitFor('the digest messages', async () =>
					stub.at('/digest').length >= want.size ? stub.at('/digest') : undefined,
				);
				expectEqual(messages.length, want.size, 'messages (teams with a change)');
				for (const [team, lines] of want) {
					const text = messages
						.map((m) => String((m.body as Json).text ?? ''))
						.find((t) => t.startsWith(`Skill tiers this week, ${team} (`));
					if (!text) throw new CheckError(`no message for ${team}`);
					expect(
						text.includes(`(${lines.length} change${lines.length === 1 ? '' : 's'})`),
						`${team}: ${text}`,
					);
					for (const line of lines) expect(text.includes(line), `${team} lacks "${line}": ${text}`);
					expect(!text.includes('support@') && !text.includes('Dev '), `${team}: ${text}`);
				}
				return [...want].map(([team, lines]) => `${team} ${lines.length}`).join(', ');
			},
		);
	} finally {
		if (workflowId) await api.deactivate(workflowId).catch(() => undefined);
		await chat?.close();
		await own?.sim.close();
	}
}

async function playbook(ctx: SuiteContext): Promise<void> {
	const { api, report } = ctx;
	let own: OwnSimulator | undefined;
	let workflowId = '';
	try {
		await report.step(
			'loop-examples: a published playbook becomes one scenario with the page as context, assigned to the group; once',
			async () => {
				own = await ownSimulator(ctx, 'playbook');
				const { control } = own.sim;
				const example = loadExample('playbook-to-scenario.json', {
					workspacePracticeApi: own.credential,
				});
				const name = `${example.workflow.name} ${randomUUID().slice(0, 8)}`;
				example.workflow.name = name;
				const sales = control.fixtures().groups.sales.id;
				// The example's Settings name the team as the simulator does ("Sales Team"): as imported.
				// Read at every poll (0: no quota).
				exampleNode(example.nodes, 'Playbook published').parameters.options = { maxReadsPerDay: 0 };
				const created = await api.createWorkflow(example.workflow);
				workflowId = created.id;
				await api.activate(created.id);
				const polled = async (n: number) =>
					await waitFor(`n8n's poll #${n}`, async () => pollCount(ctx, name) >= n, {
						timeoutMs: POLL_MS,
						intervalMs: 500,
					});
				await polled(2);
				await new Promise((r) => setTimeout(r, 3000));
				const title = 'Playbook: the reference call';
				const body = '1. Ask who else they asked\n2. Offer a customer call';
				const page = control.createPage({ title, content: body, asEmail: 'carla@acme.com' });
				control.publishPage(page.id, 'carla@acme.com');
				const before = pollCount(ctx, name);
				await polled(before + 1);
				const execution = await finished(ctx, created.id, 1);
				expectEqual(execution.status, 'success', 'execution status');
				const posts = control.requests({ method: 'POST', path: '/scenario-studio/jobs' });
				expectEqual(posts.length, 1, 'jobs created');
				expectEqual((posts[0].body as Json).context, `# ${title}\n\n${body}`, 'job context');
				const assigned = control
					.requests({ method: 'POST' })
					.filter((r) => r.path.endsWith('/assignments'))
					.map((r) => String((r.body as Json).user_email))
					.sort();
				const members = control.store.data.users
					.filter((u) => u.member && u.groupIds.includes(sales))
					.map((u) => u.email)
					.sort();
				expectEqual(assigned, members, 'assigned members');
				await polled(pollCount(ctx, name) + 1);
				await new Promise((r) => setTimeout(r, 3000));
				expectEqual((await api.executions(created.id)).length, 1, 'executions after a quiet poll');
				return `1 job (context ${String((posts[0].body as Json).context).length} characters), ${assigned.length} assignments`;
			},
		);
	} finally {
		if (workflowId) await api.deactivate(workflowId).catch(() => undefined);
		await own?.sim.close();
	}
}

export async function loopExampleSteps(ctx: SuiteContext): Promise<void> {
	if (!ctx.packageNodeTypes.includes(POLL_TRIGGER_TYPE)) {
		ctx.report.skip('loop examples', `${POLL_TRIGGER_TYPE} is not in the package yet`);
		return;
	}
	await tierDigest(ctx);
	await playbook(ctx);
}
