/**
 * The three trigger families under a slow service in a real n8n 2.41.1 (`--steps=durable`, issue 47),
 * each family on a simulator of its own whose every request takes real wall-clock time
 * (simulator/faults.ts latencyMs). Poll Times are six "custom" items, one a minute each at seconds 0,
 * 10, …, 50: a poll every 10 s (n8n refuses a single sub-minute cron, not six once-a-minute ones).
 *
 * 1. Legacy leg (n8n's default poller, the suite's n8n as started): 2 s a request, so a read of a
 *    backlog (450 pages, 800 sessions, 6 members × every scenario) takes longer than the 10 s between
 *    polls and the next poll starts while it runs. Every change the simulator holds comes out once.
 * 2. Durable leg: n8n restarted on the same user folder with N8N_SCHEDULER_ENABLED,
 *    N8N_SCHEDULER_POLL_TRIGGERS_ENABLED, N8N_POLLER_DURABLE_CURSORS_ENABLED and
 *    N8N_SCHEDULER_POLL_TIMEOUT=10, which gives each poll getPollBudgetMs() = 5 s (min(timeout, 60 s
 *    lease) less max(20 %, 5 s), at most half); n8n abandons a poll after 10 s without cancelling it,
 *    commits nothing and backs off. At 1 s a request the same backlogs need more than one budget.
 *    Ten polls or more with changes between them, the backlog, and n8n stopped by its PID while a
 *    second backlog is being read, then started again on the same folder. Every change once.
 *
 * Checked per family against the simulator's state: Knowledge Hub pages created / published after the
 * start (by ID), Practice Results sessions scored after it (by ID), Skill Tiers per member and skill
 * the emitted moves chain from the tier at the start to the tier now (a repeat or a miss breaks it).
 * Runs last: it restarts n8n (with the scheduler on) and would cut steps running alongside.
 */
import { randomUUID } from 'node:crypto';

import type { Execution } from '../../scripts/n8n/api';
import { proficiency } from '../../simulator/state/analytics';
import { pollCount, type SuiteContext } from '../context';
import { CheckError, expect, sleepMs, waitFor } from '../harness';
import { ownSimulator, type OwnSimulator } from '../support/toolResults';
import { POLL_TRIGGER_TYPE } from '../../scripts/n8n/workflows';

type Json = Record<string, unknown>;
type Sim = OwnSimulator['sim'];

/** Six once-a-minute crons 10 s apart: n8n's shortest Poll Times in effect. */
export const EVERY_10_S = {
	item: [0, 10, 20, 30, 40, 50].map((s) => ({ mode: 'custom', cronExpression: `${s} * * * * *` })),
};
export const TRIGGER = 'Trigger';
const ROUND_MS = 10_000;

/** The durable scheduler's settings (n8n 2.41's scheduler.config.js), time scaled down. */
export const DURABLE_ENV: Record<string, string> = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	// Budget min(10, 60) − max(2, 5) = 5 s; a poll still running at 10 s is abandoned.
	N8N_SCHEDULER_POLL_TIMEOUT: '10',
};

interface Family {
	name: string;
	parameters: Json;
	/** One small change, made between polls. */
	change(sim: Sim, round: number): void;
	/** A backlog larger than one poll's budget at the leg's latency; the IDs of its records (if any). */
	backlog(sim: Sim, tag: string): string[];
	/** The record ID an emitted item carries (for the backlog's spread over executions). */
	idOf(item: Json): string;
	/** What came out, per emitted item, in execution order. */
	check(sim: Sim, since: number, items: Json[]): FamilyResult;
}

interface FamilyResult {
	ok: boolean;
	summary: string;
}

const acmeMembers = (sim: Sim): string[] =>
	sim.control.store.data.users
		.filter((u) => u.member && u.email.endsWith('@acme.com'))
		.map((u) => u.email);

/** Emitted keys against expected ones: each expected key exactly once, nothing else. */
function exactly(emitted: string[], expected: string[], noun: string): FamilyResult {
	const counts = new Map<string, number>();
	for (const key of emitted) counts.set(key, (counts.get(key) ?? 0) + 1);
	const want = new Set(expected);
	const twice = [...counts].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
	const missed = expected.filter((k) => !counts.has(k));
	const extra = [...counts.keys()].filter((k) => !want.has(k));
	const ok = twice.length === 0 && missed.length === 0 && extra.length === 0;
	const head = (list: string[]) => list.slice(0, 3).join(', ') + (list.length > 3 ? ', …' : '');
	return {
		ok,
		summary:
			`${want.size} ${noun} in the simulator, ${emitted.length} emitted` +
			(twice.length ? `; ${twice.length} twice or more (${head(twice)})` : '') +
			(missed.length ? `; ${missed.length} missed (${head(missed)})` : '') +
			(extra.length ? `; ${extra.length} not expected (${head(extra)})` : ''),
	};
}

const knowledgeHub: Family = {
	name: 'Knowledge Hub Changes',
	parameters: {
		triggerOn: 'knowledgeHub',
		events: ['pageCreated', 'pagePublished'],
		options: { maxReadsPerDay: 0 },
	},
	change(sim, round) {
		// A new page each round; the one before it published.
		const pages = sim.control.store.data.pages.filter((p) => p.title.startsWith('durable round'));
		const last = pages[pages.length - 1];
		if (last && last.publishedAt === null) sim.control.publishPage(last.id);
		sim.control.createPage({ title: `durable round ${round} ${randomUUID().slice(0, 6)}` });
	},
	backlog(sim, tag) {
		// 450 pages: the first list page, the count, then 5 pages of 100 (7 requests).
		return Array.from(
			{ length: 450 },
			(_, i) => sim.control.createPage({ title: `durable backlog ${tag} ${i}` }).id,
		);
	},
	idOf: (item) => String((item.page as Json)?.id),
	check(sim, since, items) {
		const emitted = items.map((i) => `${String(i.event)}:${String((i.page as Json)?.id)}`);
		const expected = sim.control.store.data.pages.flatMap((p) => [
			...(p.createdAt >= since ? [`pageCreated:${p.id}`] : []),
			...(p.publishedAt !== null && p.publishedAt >= since ? [`pagePublished:${p.id}`] : []),
		]);
		return exactly(emitted, expected, 'page changes');
	},
};

const practice: Family = {
	name: 'Practice Results',
	parameters: {
		triggerOn: 'practice',
		practiceEvents: ['sessionScored'],
		practiceOptions: { maxReadsPerDay: 0, lookbackHours: 1 },
	},
	change(sim, round) {
		const members = acmeMembers(sim);
		for (let i = 0; i < 2; i++)
			sim.control.addSession({
				userEmail: members[(round * 2 + i) % members.length],
				scenario: sim.control.store.data.scenarios[round % 3].id,
				score: 40 + ((round * 7 + i * 13) % 60),
			});
	},
	backlog(sim) {
		// 800 scored sessions: 8 list pages of 100 (9 requests with the first).
		const members = acmeMembers(sim);
		const scenarios = sim.control.store.data.scenarios;
		return Array.from(
			{ length: 800 },
			(_, i) =>
				sim.control.addSession({
					userEmail: members[i % members.length],
					scenario: scenarios[i % scenarios.length].id,
					score: 30 + ((i * 37) % 70),
				}).id,
		);
	},
	idOf: (item) => String((item.session as Json)?.id),
	check(sim, since, items) {
		const emitted = items.map((i) => `${String(i.event)}:${String((i.session as Json)?.id)}`);
		const expected = sim.control.store.data.sessions
			.filter((s) => s.createdAt >= since && s.score !== null)
			.map((s) => `sessionScored:${s.id}`);
		return exactly(emitted, expected, 'scored sessions');
	},
};

/** Three sessions by one member on one scenario: enough to move a tier. */
function practise(sim: Sim, email: string, scenarioId: string, score: number): void {
	for (let i = 0; i < 3; i++)
		sim.control.addSession({ userEmail: email, scenario: scenarioId, score });
}

const skillTiers: Family = {
	name: 'Skill Tiers',
	parameters: {
		triggerOn: 'skillTiers',
		skillTierEvents: ['tierChanged'],
		skillTierOptions: { maxReadsPerDay: 0 },
	},
	change(sim, round) {
		const members = acmeMembers(sim);
		const scenarios = sim.control.store.data.scenarios;
		practise(
			sim,
			members[round % members.length],
			scenarios[round % scenarios.length].id,
			round % 2 ? 100 : 10,
		);
	},
	backlog(sim, tag) {
		// Every member on every scenario (every skill moves): the sessions list, the scenarios' skills,
		// and each skill's members, paced.
		const members = acmeMembers(sim);
		const high = tag.endsWith('1');
		members.forEach((email, m) =>
			sim.control.store.data.scenarios.forEach((s, i) =>
				practise(sim, email, s.id, (m + i) % 2 === (high ? 0 : 1) ? 95 : 15),
			),
		);
		// Moves are per member and skill, not per record: the spread is not measured.
		return [];
	},
	idOf: (item) => `${String((item.member as Json)?.email)}|${String((item.skill as Json)?.id)}`,
	check(sim, since, items) {
		const { store } = sim.control;
		const tiers = (skillId: string, asOf: number) => {
			const obs = store.data.observations.filter((o) => o.skillId === skillId);
			return new Map(proficiency(obs, asOf).map((p) => [p.userId, String(p.tier)]));
		};
		const now = Date.parse(sim.control.now());
		const emails = new Set(acmeMembers(sim));
		const moves = new Map<string, Array<[string, string]>>();
		for (const item of items) {
			const key = `${String((item.member as Json)?.email)}|${String((item.skill as Json)?.id)}`;
			const list = moves.get(key) ?? [];
			list.push([String(item.tier_before), String(item.tier_after)]);
			moves.set(key, list);
		}
		const broken: string[] = [];
		let changed = 0;
		for (const skill of store.data.skills) {
			const then = tiers(skill.id, since - 1);
			const nowTiers = tiers(skill.id, now);
			for (const user of store.data.users) {
				const key = `${user.email}|${skill.id}`;
				const from = then.get(user.id) ?? 'insufficient_data';
				const to = nowTiers.get(user.id) ?? 'insufficient_data';
				const list = moves.get(key) ?? [];
				moves.delete(key);
				if (!emails.has(user.email)) {
					if (list.length)
						broken.push(`${user.email} ${skill.name}: not watched, emitted ${list.length}`);
					continue;
				}
				if (from !== to) changed++;
				let at = from;
				const chain = [from];
				let ok = true;
				for (const [before, after] of list) {
					if (before !== at || before === after) ok = false;
					at = after;
					chain.push(after);
				}
				if (!ok || at !== to)
					broken.push(`${user.email} ${skill.name}: ${from}→${to}, emitted ${chain.join('>')}`);
			}
		}
		for (const [key, list] of moves)
			broken.push(`${key}: ${list.length} moves of no member or skill`);
		const head = broken.slice(0, 3).join('; ') + (broken.length > 3 ? '; …' : '');
		return {
			ok: broken.length === 0,
			summary: `${changed} member-skills moved, ${items.length} moves emitted${broken.length ? `; ${broken.length} not matching the simulator (${head})` : ', each chaining from the tier at the start to the tier now'}`,
		};
	},
};

const FAMILIES = [knowledgeHub, practice, skillTiers];

interface Watched {
	family: Family;
	own: OwnSimulator;
	workflowId: string;
	workflowName: string;
	/** Simulator time from which changes count. */
	since: number;
	/** IDs of the backlogs' records. */
	backlog: Set<string>;
	/** Of those, the first backlog's (made in round 2, read while the service is slow). */
	firstBacklog: Set<string>;
}

/** Every execution of a workflow with its data, oldest first (the API pages by 100). */
export async function allExecutions(ctx: SuiteContext, workflowId: string): Promise<Execution[]> {
	const all: Execution[] = [];
	let cursor = '';
	for (;;) {
		const qs = new URLSearchParams({ workflowId, includeData: 'true', limit: '100' });
		if (cursor) qs.set('cursor', cursor);
		const res = await ctx.api.raw(`/api/v1/executions?${qs.toString()}`, { method: 'GET' });
		const body = res.body as { data?: Execution[]; nextCursor?: string | null };
		if (res.status !== 200 || !body.data)
			throw new CheckError(
				`list executions: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
			);
		all.push(...body.data);
		if (!body.nextCursor) break;
		cursor = body.nextCursor;
	}
	return all.sort((a, b) => Number(a.id) - Number(b.id));
}

/** When n8n started an execution (epoch ms). */
const startedAt = (execution: Execution): number =>
	Date.parse(String((execution as Execution & { startedAt?: string }).startedAt ?? ''));

export const itemsOf = (execution: Execution): Json[] =>
	(execution.data?.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map((i) => i.json);

const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

/** What n8n's log says of a workflow's polls: under the scheduler, per outcome; else "initiated". */
function pollsOf(ctx: SuiteContext, w: Watched, durable: boolean) {
	if (!durable) {
		const n = pollCount(ctx, w.workflowName);
		return { total: n, text: `${n} polls` };
	}
	const lines = stripAnsi(ctx.n8n.log('n8n'))
		.split('\n')
		// n8n prints each line's metadata as JSON: `"workflowId": "<id>"`.
		.filter((l) => new RegExp(`"workflowId":\\s*"${w.workflowId}"`).test(l));
	const count = (what: string) => lines.filter((l) => l.includes(what)).length;
	const done = count('Poll returned');
	const failed = count('Poll failed at runtime');
	const abandoned = count('Poll exceeded its timeout');
	const backingOff = count('Poll is backing off');
	return {
		total: done + failed + abandoned,
		text: `${done + failed + abandoned} polls (${done} done, ${failed} failed, ${abandoned} abandoned by n8n; ${backingOff} skipped backing off)`,
	};
}

/** Requests a family's simulator answered (the trigger is its only client). */
const requestsOf = (w: Watched): number => w.own.sim.control.requests().length;

/**
 * The longest read, in ms, from the simulator's record: answers closer together than one latency
 * and a second belong to one read; its span is from the first request sent to the last answer.
 */
function longestRead(w: Watched, latencyMs: number): number {
	const times = w.own.sim.control
		.requests()
		.map((r) => Date.parse(r.at))
		.sort((a, b) => a - b);
	let longest = 0;
	let start = times[0] ?? 0;
	for (let i = 1; i <= times.length; i++) {
		if (i === times.length || times[i] - times[i - 1] > latencyMs + 1000) {
			longest = Math.max(longest, times[i - 1] - start + latencyMs);
			start = times[i];
		}
	}
	return longest;
}

/** Which legs run (`--steps=durable` both, `durable-legacy` or `durable-scheduler` one). */
export interface Legs {
	legacy: boolean;
	scheduler: boolean;
}

export async function durableSteps(
	ctx: SuiteContext,
	legs: Legs = { legacy: true, scheduler: true },
): Promise<void> {
	const { report } = ctx;
	if (!ctx.packageNodeTypes.includes(POLL_TRIGGER_TYPE)) return;
	if (ctx.queueMode || ctx.major !== 2) {
		report.skip('durable', 'n8n 2.x in one process only (the scheduler flags are a 2.41 feature)');
		return;
	}
	if (legs.legacy) await leg(ctx, false);
	if (!legs.scheduler) return;
	const restarted = await report.step(
		'durable: n8n restarted on its folder with the durable scheduler on (poll timeout 10 s: budget 5 s)',
		async () => {
			const started = Date.now();
			await ctx.n8n.restart(DURABLE_ENV);
			return `${Object.entries(DURABLE_ENV)
				.map(([k, v]) => `${k}=${v}`)
				.join(' ')}; restart ${((Date.now() - started) / 1000).toFixed(0)} s`;
		},
	);
	if (restarted) await leg(ctx, true);
}

async function leg(ctx: SuiteContext, durable: boolean): Promise<void> {
	const { api, report, n8n } = ctx;
	const label = durable ? 'durable (scheduler)' : 'durable (legacy poller)';
	const latencyMs = durable ? 1000 : 2000;
	const watched: Watched[] = [];
	const notes: string[] = [];
	try {
		const ready = await report.step(
			`${label}: three families active, a poll every 10 s, nothing from the past`,
			async () => {
				for (const family of FAMILIES) {
					const own = await ownSimulator(ctx, `${label} ${family.name}`);
					const workflowName = `e2e ${label} ${family.name} ${randomUUID().slice(0, 6)}`;
					const workflow = await api.createWorkflow({
						name: workflowName,
						nodes: [
							{
								id: randomUUID(),
								name: TRIGGER,
								type: POLL_TRIGGER_TYPE,
								typeVersion: 1,
								position: [0, 0],
								parameters: { pollTimes: EVERY_10_S, ...family.parameters },
								credentials: { workspacePracticeApi: own.credential },
							},
						],
						connections: {},
					});
					watched.push({
						family,
						own,
						workflowId: workflow.id,
						workflowName,
						since: 0,
						backlog: new Set(),
						firstBacklog: new Set(),
					});
				}
				for (const w of watched) await api.activate(w.workflowId);
				// The first scheduled poll takes the starting point (n8n keeps nothing from activation's).
				await waitFor(
					'two polls of each workflow',
					async () => watched.every((w) => pollsOf(ctx, w, durable).total >= 2),
					{ timeoutMs: 90_000, intervalMs: 500 },
				);
				await sleepMs(3000);
				for (const w of watched) {
					const executions = await allExecutions(ctx, w.workflowId);
					expect(
						executions.length === 0,
						`${w.family.name}: ${executions.length} executions from the past`,
					);
					// From the start of this second: the simulator keeps whole seconds, so a change made
					// within it would otherwise stamp before the start.
					w.since = Math.floor(Date.parse(w.own.sim.control.now()) / 1000) * 1000;
				}
				return watched.map((w) => `${w.family.name} ${pollsOf(ctx, w, durable).text}`).join('; ');
			},
		);
		if (!ready) return;

		const started = Date.now();
		/** When the service became fast again (wall clock, as n8n's startedAt). */
		let drainAt = Infinity;
		const pollsAtStart = watched.map((w) => pollsOf(ctx, w, durable).total);
		await report.step(
			`${label}: ten polls or more at ${latencyMs / 1000} s a request with changes between them, a backlog larger than ${durable ? 'one poll budget' : 'the poll interval'}${durable ? ', n8n stopped by its PID during a read and started again' : ''}`,
			async () => {
				for (const w of watched) w.own.sim.control.setLatency(latencyMs);
				let round = 0;
				const enoughPolls = () =>
					watched.every((w, i) => pollsOf(ctx, w, durable).total - pollsAtStart[i] >= 10);
				while (round < 10 || !enoughPolls()) {
					round++;
					if (Date.now() - started > 300_000) break;
					for (const w of watched) w.family.change(w.own.sim, round);
					if (round === 2)
						for (const w of watched)
							for (const id of w.family.backlog(w.own.sim, 'b1')) {
								w.backlog.add(id);
								w.firstBacklog.add(id);
							}
					if (durable && round === 6) {
						// A second backlog; once every trigger is reading it, n8n is stopped by its PID.
						const before = watched.map(requestsOf);
						for (const w of watched)
							for (const id of w.family.backlog(w.own.sim, 'b2')) w.backlog.add(id);
						await waitFor(
							'every trigger reading the second backlog',
							async () => watched.every((w, i) => requestsOf(w) >= before[i] + 2),
							{ timeoutMs: 60_000, intervalMs: 200 },
						).catch(() => undefined);
						const pid = n8n.pid();
						const answered = watched.map((w, i) => requestsOf(w) - before[i]).join('/');
						const stopAt = Date.now();
						await n8n.restart();
						notes.push(
							`n8n (PID ${pid}) stopped after ${answered} requests of the second backlog's reads were answered, started again in ${((Date.now() - stopAt) / 1000).toFixed(0)} s`,
						);
						continue;
					}
					await sleepMs(ROUND_MS);
				}
				const reads = watched.map((w) => longestRead(w, latencyMs));
				// The service fast again: the polls left finish what is still to be read.
				for (const w of watched) w.own.sim.control.setLatency(0);
				drainAt = Date.now();
				const atDrain = watched.map((w) => pollsOf(ctx, w, durable).total);
				await waitFor(
					'three more polls of each workflow',
					async () => watched.every((w, i) => pollsOf(ctx, w, durable).total >= atDrain[i] + 3),
					{ timeoutMs: 120_000, intervalMs: 1000 },
				).catch(() => notes.push('fewer than 3 polls in the 2 minutes after the rounds'));
				await sleepMs(4000);
				// The legacy leg is about reads longer than the poll interval: make sure there were some.
				if (!durable)
					watched.forEach((w, i) =>
						expect(
							w.backlog.size === 0 || reads[i] > ROUND_MS,
							`${w.family.name}: the longest read took ${(reads[i] / 1000).toFixed(0)} s, not longer than the ${ROUND_MS / 1000} s between polls`,
						),
					);
				return `${round} rounds in ${((Date.now() - started) / 1000).toFixed(0)} s; ${watched
					.map(
						(w, i) =>
							`${w.family.name}: ${pollsOf(ctx, w, durable).text}, ${requestsOf(w)} requests, longest read ${(reads[i] / 1000).toFixed(0)} s`,
					)
					.join('; ')}${notes.length ? `; ${notes.join('; ')}` : ''}`;
			},
		);

		for (const w of watched) {
			await report.step(
				`${label}: ${w.family.name}, every change the simulator holds emitted once`,
				async () => {
					const executions = await allExecutions(ctx, w.workflowId);
					const failed = executions.filter((e) => e.status === 'error' || e.status === 'crashed');
					const emitting = executions.filter((e) => itemsOf(e).length > 0);
					const items = executions.flatMap(itemsOf);
					const result = w.family.check(w.own.sim, w.since, items);
					const spread = emitting.filter((e) =>
						itemsOf(e).some((i) => w.backlog.has(w.family.idOf(i))),
					).length;
					const spreadText = w.backlog.size
						? `the ${w.backlog.size} backlog records came out over ${spread} executions`
						: 'backlog spread not measured';
					const slow = emitting.filter((e) => startedAt(e) < drainAt);
					const slowItems = slow.reduce((n, e) => n + itemsOf(e).length, 0);
					const firstDone = new Set(
						slow
							.flatMap(itemsOf)
							.map((i) => w.family.idOf(i))
							.filter((id) => w.firstBacklog.has(id)),
					).size;
					const firstText = w.firstBacklog.size
						? `; of the first backlog ${firstDone} of ${w.firstBacklog.size} out while slow`
						: '';
					const detail = `${result.summary}; ${spreadText}${firstText}; ${emitting.length} executions with items (largest ${Math.max(0, ...emitting.map((e) => itemsOf(e).length))}), ${slow.length} of them (${slowItems} items) while the service was slow, ${failed.length} failed; ${pollsOf(ctx, w, durable).text}`;
					if (!result.ok) throw new CheckError(`${w.family.name} NOT EXACT: ${detail}`);
					if (durable) {
						// Changes every round, a budget of 5 s: reads that finish come out as the rounds go.
						expect(
							slow.length >= 3,
							`${w.family.name} NOT READ WITHIN THE BUDGET: the changes came out only once the service was fast again: ${detail}`,
						);
						// Two backlogs each larger than a budget: at least two polls each (they may share one).
						expect(
							w.backlog.size === 0 || spread >= 3,
							`${w.family.name} NOT CONTINUED: a backlog larger than one budget came out in fewer polls than it needs: ${detail}`,
						);
						// The first backlog had eight rounds (80 s, 16 budgets) at the slow service to finish.
						expect(
							firstDone === w.firstBacklog.size,
							`${w.family.name} NOT COMPLETED WHILE SLOW: the first backlog was not all out before the service was fast again: ${detail}`,
						);
					}
					return detail;
				},
			);
		}
	} finally {
		for (const w of watched) {
			await api.deactivate(w.workflowId).catch(() => undefined);
			await w.own.sim.close();
		}
	}
}
