/**
 * Practice Results' outcomes while the service stays slow, in a real n8n 2.41.1 (`--steps=slow-outcomes`,
 * issue 56): every request to the trigger's simulator takes 12 s of wall-clock time, as long as the
 * step runs. Before issue 56 the finished-assignment read and its look-ups ran all or nothing, and under
 * the durable scheduler (36 s a poll: two requests) no Assignment Completed or Did Not Pass came while
 * the service stayed slow.
 *
 * 1. Legacy leg (n8n's default poller, five minutes a poll): the whole read in one poll.
 * 2. Scheduler leg: n8n restarted on its folder with the durable scheduler on and its default poll
 *    timeout, 45 s (getPollBudgetMs() 36 s: two requests at 12 s each).
 *
 * Each leg: 260 open assignments (130 given three hours before, below the starting point's cut-off, 130
 * just before), the starting point taken on a fast service, then the service at 12 s a request and 240
 * of them finished (a quarter Did Not Pass): 2 pages of the finished list since the cut-off, 3 of the
 * look-up of those gone. Every outcome must come out once, nothing else, while the service is still slow.
 */
import { randomUUID } from 'node:crypto';

import { type SuiteContext } from '../context';
import { CheckError, expect, sleepMs, waitFor } from '../harness';
import { ownSimulator } from '../support/toolResults';
import { POLL_TRIGGER_TYPE } from '../../scripts/n8n/workflows';
import { DURABLE_ENV, EVERY_10_S, TRIGGER, allExecutions, itemsOf, type Legs } from './durable';

type Json = Record<string, unknown>;

const LATENCY_MS = 12_000;
const HOUR = 3_600_000;
/** The durable scheduler with n8n's default poll timeout: a budget of 36 s. */
const SCHEDULER_ENV = { ...DURABLE_ENV, N8N_SCHEDULER_POLL_TIMEOUT: '45' };
/** Time for every outcome to come out at 12 s a request (about 10 requests; polls of 36 s). */
const OUTCOMES_WITHIN_MS = 10 * 60_000;

export async function slowOutcomeSteps(ctx: SuiteContext, legs: Legs): Promise<void> {
	const { report } = ctx;
	if (!ctx.packageNodeTypes.includes(POLL_TRIGGER_TYPE)) return;
	if (ctx.queueMode || ctx.major !== 2) {
		report.skip(
			'slow outcomes',
			'n8n 2.x in one process only (the scheduler flags are a 2.41 feature)',
		);
		return;
	}
	if (legs.legacy && (await onDefaultPoller(ctx))) await leg(ctx, false);
	if (!legs.scheduler) return;
	const restarted = await report.step(
		'slow outcomes: n8n restarted on its folder with the durable scheduler on (poll timeout 45 s: budget 36 s)',
		async () => {
			await ctx.n8n.restart(SCHEDULER_ENV);
			return Object.entries(SCHEDULER_ENV)
				.map(([k, v]) => `${k}=${v}`)
				.join(' ');
		},
	);
	if (restarted) await leg(ctx, true);
}

/**
 * The legacy leg needs n8n's default poller. An earlier step (durable.ts) may have left n8n on the
 * durable scheduler with a 10 s poll timeout (a 5 s budget: no request at 12 s fits, so nothing could
 * come); n8n is then restarted on its folder without the scheduler flags.
 */
async function onDefaultPoller(ctx: SuiteContext): Promise<boolean> {
	const env = ctx.n8n.options.env ?? {};
	const flags = Object.keys(DURABLE_ENV).filter((name) => name in env);
	if (flags.length === 0) return true;
	return await ctx.report.step(
		"slow outcomes: n8n restarted on its folder with n8n's default poller (an earlier step turned the durable scheduler on)",
		async () => {
			ctx.n8n.options.env = Object.fromEntries(
				Object.entries(env).filter(([name]) => !flags.includes(name)),
			);
			await ctx.n8n.restart();
			return `unset ${flags.join(', ')}`;
		},
	);
}

async function leg(ctx: SuiteContext, durable: boolean): Promise<void> {
	const { api, report } = ctx;
	const label = `slow outcomes (${durable ? 'durable scheduler' : 'legacy poller'})`;
	const own = await ownSimulator(ctx, label);
	const { control } = own.sim;
	let workflowId: string | undefined;
	try {
		const members = control.store.data.users
			.filter((u) => u.member && u.email.endsWith('@acme.com'))
			.map((u) => u.email);
		const scenarios = control.store.data.scenarios.slice(0, 2).map((s) => s.id);
		const give = (n: number) =>
			Array.from(
				{ length: n },
				(_, i) =>
					control.addAssignment({
						userEmail: members[i % members.length],
						scenario: scenarios[i % scenarios.length],
					}).id,
			);
		const old = give(130);
		// Given three hours ago: below the starting point's cut-off, found by the look-up of those gone.
		for (const a of control.store.data.assignments) if (old.includes(a.id)) a.createdAt -= 3 * HOUR;
		const recent = give(130);

		const ready = await report.step(
			`${label}: Practice Results (completions) active, a poll every 10 s, its starting point taken on a fast service`,
			async () => {
				const workflow = await api.createWorkflow({
					name: `e2e ${label} ${randomUUID().slice(0, 6)}`,
					nodes: [
						{
							id: randomUUID(),
							name: TRIGGER,
							type: POLL_TRIGGER_TYPE,
							typeVersion: 1,
							position: [0, 0],
							parameters: {
								pollTimes: EVERY_10_S,
								triggerOn: 'practice',
								practiceEvents: ['assignmentCompleted', 'assignmentDidNotPass'],
								// Every read an assignment read.
								practiceOptions: { maxReadsPerDay: 0, openReadHours: 0 },
							},
							credentials: { workspacePracticeApi: own.credential },
						},
					],
					connections: {},
				});
				workflowId = workflow.id;
				await api.activate(workflow.id);
				// The starting point: sessions, 3 open pages, the finished list; then one more read.
				await waitFor('two reads', async () => control.requests().length >= 10, {
					timeoutMs: 90_000,
					intervalMs: 500,
				});
				const executions = await allExecutions(ctx, workflow.id);
				expect(executions.length === 0, `${executions.length} executions from the past`);
				return `${control.requests().length} requests`;
			},
		);
		if (!ready || workflowId === undefined) return;
		const id = workflowId;

		await report.step(
			`${label}: 240 assignments finished while the service answers in 12 s a request, every outcome once`,
			async () => {
				control.setLatency(LATENCY_MS);
				// Let a read begun on the fast service end before the finishes.
				await sleepMs(15_000);
				const requestsBefore = control.requests().length;
				const started = Date.now();
				const expected = new Set(
					[...old.slice(0, 120), ...recent.slice(0, 120)].map((aid, i) => {
						const status = i % 4 === 3 ? 'did_not_pass' : 'completed';
						control.setAssignmentStatus(aid, status);
						return `${status === 'completed' ? 'assignmentCompleted' : 'assignmentDidNotPass'}:${aid}`;
					}),
				);
				const keysOf = (items: Json[]) =>
					items.map((i) => `${String(i.event)}:${String((i.assignment as Json)?.id)}`);
				let outSoFar = 0;
				const executions = await waitFor(
					'every outcome',
					async () => {
						const all = await allExecutions(ctx, id);
						const keys = new Set(all.flatMap((e) => keysOf(itemsOf(e))));
						outSoFar = [...expected].filter((k) => keys.has(k)).length;
						return outSoFar === expected.size ? all : undefined;
					},
					{ timeoutMs: OUTCOMES_WITHIN_MS, intervalMs: 5000 },
				).catch((error: unknown) => {
					throw new CheckError(
						`NOT WHILE SLOW: ${outSoFar} of ${expected.size} outcomes out in ${OUTCOMES_WITHIN_MS / 60_000} minutes at 12 s a request (${error instanceof Error ? error.message : String(error)})`,
					);
				});
				const tookS = ((Date.now() - started) / 1000).toFixed(0);
				// A poll under way may still emit: wait for it, then judge.
				await sleepMs(durable ? 45_000 : 20_000);
				const all = await allExecutions(ctx, id);
				const emitting = all.filter((e) => itemsOf(e).length > 0);
				const keys = all.flatMap((e) => keysOf(itemsOf(e)));
				const counts = new Map<string, number>();
				for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
				const twice = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
				const extra = [...counts.keys()].filter((k) => !expected.has(k));
				const failed = all.filter((e) => e.status === 'error' || e.status === 'crashed');
				const detail = `${expected.size} outcomes expected, ${keys.length} emitted over ${emitting.length} executions (${emitting.map((e) => itemsOf(e).length).join(', ')}), all out ${tookS} s after the finishes (${executions.length} executions then), ${control.requests().length - requestsBefore} requests at 12 s, ${failed.length} failed executions`;
				if (twice.length || extra.length)
					throw new CheckError(
						`NOT EXACT: ${twice.length} twice (${twice.slice(0, 3).join(', ')}), ${extra.length} not expected (${extra.slice(0, 3).join(', ')}); ${detail}`,
					);
				// 36 s a poll: the read goes on a page a poll, its outcomes over several executions.
				if (durable)
					expect(
						emitting.length >= 2,
						`NOT A PAGE A POLL: every outcome came in one execution; ${detail}`,
					);
				return detail;
			},
		);
	} finally {
		control.setLatency(0);
		if (workflowId) await api.deactivate(workflowId).catch(() => undefined);
		await own.sim.close();
	}
}
