/**
 * Practice Results trigger against an oracle written from docs/practice-events.md alone (issue 39,
 * "How these were missed"): the expected events come from what this test did (sessions listed and
 * scored, assignments finished by an admin), never from the simulator's state or the trigger's code.
 *
 * Stories: sessions scored at once, listed unscored and scored later, or listed late (created up to an
 * hour before they show); members leaving (their sessions still count); filters edited while the
 * workflow is active (Members, Groups, Score Below: per the docs a restart with empty state); restarts
 * with empty static data; n8n 1.x keeping only what an emitting poll saved, then restarting; reads the
 * service fails (every retry): nothing sent, the next read repeats them.
 *
 * The oracle (docs/practice-events.md):
 * - Session Scored: a session matching the filters, listed with a score for the first time, is sent
 *   once, within one read after the score shows (every poll reads here; one poll of slack). Sessions
 *   here are created at most an hour before they show and scored within two hours, well inside
 *   Lookback Hours (6), so the lookback rule never applies.
 * - Assignment Completed / Did Not Pass: an assignment finished after activation (here by an admin)
 *   is sent once per assignment and status, within 6 h + one read.
 * - A restart with empty state (new activation, edited filters): its first read sends nothing, and
 *   nothing that happened before it is ever sent; what happens after it is sent. A restart that brings
 *   back an older stored state (1.x) loses and repeats nothing.
 */
import { appendFileSync } from 'node:fs';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { mulberry32 } from '../../simulator/state/random';
import { PollHarness, type Persistence } from '../../n8n-harness/pollHarness';
import { RETRY } from '../../nodes/shared/transport/retryPolicy';
import { startRig, type TriggerRig } from './setup';
import { HOUR, MINUTE, SECOND, TierWorld, type Member } from './tierWorld';
import { SEED_NOW } from '../../simulator';

// ---------------------------------------------------------------------------------------------------
// The form: every parameter this file sets. Lines marked FIELD may change at merge.

interface PracticeConfig {
	memberEmails: string[];
	groupIds: string[];
	excludeSystemUsers: boolean;
	/** Score Below (undefined: not set). */
	scoreBelow?: number;
}

function practiceParameters(c: PracticeConfig): INodeParameters {
	const filters: INodeParameters = {};
	if (c.memberEmails.length)
		filters.members = {
			member: c.memberEmails.map((value) => ({ member: { __rl: true, mode: 'email', value } })),
		};
	if (c.groupIds.length) filters.group_ids = [...c.groupIds];
	if (c.excludeSystemUsers) filters.exclude_system_users = true;
	if (c.scoreBelow !== undefined) filters.scoreBelow = c.scoreBelow;
	return {
		triggerOn: 'practice',
		practiceEvents: ['sessionScored', 'assignmentCompleted', 'assignmentDidNotPass'],
		practiceFilters: filters,
		practiceOptions: {
			maxReadsPerDay: 1440, // FIELD: Options → Max Reads a Day (h-sched), high: every poll may read
			lookbackHours: 6,
			openReadHours: 6,
		},
	};
}

// ---------------------------------------------------------------------------------------------------

const SEQUENCES = Number(process.env.ORACLE_SEQUENCES ?? (process.env.WSP_DEEP === '1' ? 40 : 12));
const FIRST = Number(process.env.ORACLE_FIRST ?? 0);
const HOURS = 60;

type Kind = 'missed' | 'duplicate' | 'unexpected' | 'wrong' | 'failedPolls';
type Counts = Record<Kind, number>;
const zero = (): Counts => ({ missed: 0, duplicate: 0, unexpected: 0, wrong: 0, failedPolls: 0 });
const iso = (t: number) => new Date(t).toISOString();

interface SessionFact {
	id: string;
	member: Member;
	score: number;
	/** When it is listed with its score. */
	shownAt: number;
	emitted: number;
	/** Before a restart with empty state took its starting point: never sent. */
	history: boolean;
	/** Shown between the last read and a starting point: may be sent, once. */
	optional?: boolean;
}
interface AssignmentFact {
	id: string;
	member: Member;
	status: 'completed' | 'did_not_pass';
	finishedAt: number;
	emitted: number;
	history: boolean;
	/** Finished before a starting point taken for a Session Scored filter edit: may be sent, once. */
	optional?: boolean;
}

const EVENT_NAMES: Record<string, string> = {
	'Session Scored': 'sessionScored',
	'Assignment Completed': 'assignmentCompleted',
	'Assignment Did Not Pass': 'assignmentDidNotPass',
};

/** Uses up failures the read did not (a service fault queued for it must not hit the next poll). */
async function drainFailures(rig: TriggerRig): Promise<void> {
	for (let i = 0; i < 2 * RETRY.maxAttempts; i++) {
		const answer = await fetch(`${rig.sim.baseUrl}/workspace`, {
			headers: { authorization: `Bearer ${rig.sim.apiKey}` },
		});
		if (answer.status < 500) return;
	}
}

async function runSequence(rig: TriggerRig, seed: number) {
	const rand = mulberry32(seed);
	const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
	const counts = zero();
	const examples: string[] = [];
	const persistence: Persistence = rand() < 0.5 ? 'emit-only' : 'staged';
	const label = `seed ${seed} (${persistence})`;
	const log: Array<[number, string]> = [];
	const note = (kind: Kind, what: string, now: number) => {
		counts[kind]++;
		const recent = log.filter(([t]) => t >= now - 12 * HOUR).map(([t, s]) => `${iso(t)} ${s}`);
		if (examples.length < 20)
			examples.push(
				`${label} ${kind}: ${what}${recent.length ? ` [recent: ${recent.join(', ')}]` : ''}`,
			);
	};

	rig.reset();
	// A month after the seed: its sessions are far outside any lookback window.
	const start = SEED_NOW + (30 + Math.floor(rand() * 60)) * 24 * HOUR;
	rig.clock.set(start);
	const world = new TierWorld(
		rig.sim.control,
		rand,
		{ members: 4 + Math.floor(rand() * 6), skills: 2, groups: 2, systemUsers: 1 },
		start,
	);
	// Sessions on the skill scenarios; assignments on the last scenario, which nobody practises (so
	// only the admin's status changes move them).
	const sessionScenarios = world.scenarios.slice(0, -1);
	const assignmentScenario = world.scenarios[world.scenarios.length - 1];
	const config: PracticeConfig = {
		memberEmails: rand() < 0.25 ? world.members.filter(() => rand() < 0.6).map((m) => m.email) : [],
		groupIds: rand() < 0.25 ? [pick(world.groups).id] : [],
		excludeSystemUsers: rand() < 0.5,
		scoreBelow: rand() < 0.25 ? 40 + Math.floor(rand() * 40) : undefined,
	};
	const snapshot = () => ({
		...config,
		memberEmails: [...config.memberEmails],
		groupIds: [...config.groupIds],
	});
	let active = snapshot();
	const sessionMatches = (s: SessionFact, c: PracticeConfig) =>
		(c.memberEmails.length === 0 || c.memberEmails.includes(s.member.email)) &&
		(c.groupIds.length === 0 || world.groupsOf(s.member).some((g) => c.groupIds.includes(g))) &&
		!(c.excludeSystemUsers && s.member.system) &&
		(c.scoreBelow === undefined || s.score < c.scoreBelow);
	const assignmentMatches = (a: AssignmentFact, c: PracticeConfig) =>
		c.memberEmails.length === 0 || c.memberEmails.includes(a.member.email);

	const sessions = new Map<string, SessionFact>();
	const assignments = new Map<string, AssignmentFact>();
	/** Open assignments: id → member. */
	const open = new Map<string, Member>();
	/** Unscored sessions waiting for their score. */
	const pending: Array<{ id: string; member: Member; scoreAt: number; score: number }> = [];

	const newHarness = (n: number) =>
		new PollHarness({
			parameters: practiceParameters(active),
			credentials: { baseUrl: rig.sim.baseUrl, apiKey: rig.sim.apiKey },
			persistence,
			workflow: { id: `practice-oracle-${seed}-${n}` },
		});
	let harnesses = 0;
	let harness = newHarness(0);
	/**
	 * The next read takes a starting point: for everything, or (an edit of a Session Scored filter:
	 * Groups, Score Below) at least for sessions; whether the assignment part keeps its state then is
	 * not said, so assignments finished before it may be sent or not.
	 */
	let emptyRead: 'all' | 'sessions' | undefined = 'all';
	let savedEver = false;
	// Every poll reads (Max Reads a Day 0): one an hour, on the hour and a few seconds.
	const polls = Array.from({ length: HOURS }, (_, i) => start + (i + 1) * HOUR + 7 * SECOND);
	let emitted = 0;
	/** The last read that did not fail. */
	let lastOk = start;

	for (let p = 0; p < polls.length; p++) {
		const T = polls[p];
		const prev = p === 0 ? start : polls[p - 1];
		if (p > 0 && p < polls.length - 10) {
			const moments = Array.from(
				{ length: Math.floor(rand() * 4) },
				() => Math.floor((prev + MINUTE + rand() * (T - prev - 2 * MINUTE)) / SECOND) * SECOND,
			).sort((a, b) => a - b);
			for (const t of moments) {
				rig.clock.set(t);
				// Scores that came due.
				for (const w of pending.filter((x) => x.scoreAt <= t)) {
					pending.splice(pending.indexOf(w), 1);
					rig.sim.control.scoreSession(w.id, w.score);
					sessions.set(w.id, {
						id: w.id,
						member: w.member,
						score: w.score,
						shownAt: t,
						emitted: 0,
						history: false,
					});
				}
				const r = rand();
				const m = pick(world.members);
				if (r < 0.55) {
					const score = Math.round(rand() * 10000) / 100;
					const late = rand() < 0.3 ? Math.floor(rand() * HOUR) : 0;
					if (rand() < 0.35) {
						const row = rig.sim.control.addSession({
							userEmail: m.email,
							scenario: pick(sessionScenarios).id,
							score: null,
							lateByMs: late,
						});
						pending.push({
							id: String(row.id),
							member: m,
							scoreAt: t + Math.floor(rand() * 2 * HOUR) - late,
							score,
						});
					} else {
						const row = rig.sim.control.addSession({
							userEmail: m.email,
							scenario: pick(sessionScenarios).id,
							score,
							lateByMs: late,
						});
						sessions.set(String(row.id), {
							id: String(row.id),
							member: m,
							score,
							shownAt: t,
							emitted: 0,
							history: false,
						});
					}
				} else if (r < 0.75 && world.isMember(m)) {
					const a = rig.sim.control.addAssignment({
						userEmail: m.email,
						scenario: assignmentScenario.id,
					});
					open.set(String(a.id), m);
				} else if (r < 0.95 && [...open.values()].some((x) => world.isMember(x))) {
					const [id, member] = pick([...open].filter(([, x]) => world.isMember(x)));
					open.delete(id);
					const status = rand() < 0.6 ? 'completed' : 'did_not_pass';
					rig.sim.control.setAssignmentStatus(id, status);
					assignments.set(id, { id, member, status, finishedAt: t, emitted: 0, history: false });
				} else if (world.members.filter((x) => world.isMember(x)).length > 2 && world.isMember(m)) {
					world.leave(m);
					log.push([t, `${m.email} left`]);
				}
			}
		}
		rig.clock.set(T);
		// Now and then the service fails the read (every retry): nothing is sent, the next read repeats it.
		const failRead = p > 0 && p < polls.length - 10 && rand() < 0.03;
		if (failRead) rig.sim.control.failNext(RETRY.maxAttempts, 503);
		const outcome = await harness.poll();
		if (failRead) await drainFailures(rig);
		const failed = failRead && outcome.error !== undefined;
		if (failed && outcome.items.length) note('unexpected', `a failed read emitted at ${iso(T)}`, T);
		if (failed) log.push([T, 'a failed read']);
		else if (outcome.error) note('failedPolls', `poll at ${iso(T)}: ${outcome.error.message}`, T);
		if (!failed) {
			// What 1.x has saved since the last starting point (staged saves every poll).
			if (outcome.emitted || persistence === 'staged') savedEver = true;
			const firstRead = emptyRead;
			emptyRead = undefined;
			// A starting point: what showed before the last read is history (never sent); what showed since
			// (between that read and this one) may be lost or sent, once.
			if (firstRead) {
				for (const s of sessions.values())
					if (!s.emitted && s.shownAt <= T) {
						if (s.shownAt <= lastOk) s.history = true;
						else s.optional = true;
					}
				for (const a of assignments.values())
					if (!a.emitted && a.finishedAt <= T) {
						if (firstRead === 'all' && a.finishedAt <= lastOk) a.history = true;
						else a.optional = true;
					}
			}
			for (const { json } of outcome.items) {
				emitted++;
				const event = EVENT_NAMES[String(json.event)] ?? String(json.event);
				const row = (json.session ?? json.assignment ?? {}) as IDataObject;
				const id = String(row.id);
				if (event === 'sessionScored') {
					const s = sessions.get(id);
					if (!s) {
						note('unexpected', `Session Scored ${id} (not a session this test scored)`, T);
						continue;
					}
					if (s.emitted > 0) note('duplicate', `Session Scored ${id} again at ${iso(T)}`, T);
					else if (s.history)
						note(
							'unexpected',
							`Session Scored ${id} (${s.member.email}, ${s.score}, shown ${iso(s.shownAt)}) from before the starting point, at ${iso(T)}`,
							T,
						);
					else if (!sessionMatches(s, active))
						note('unexpected', `Session Scored ${id} outside the filters`, T);
					else if (row.score !== s.score)
						note('wrong', `Session Scored ${id}: score ${row.score} (expected ${s.score})`, T);
					s.emitted++;
				} else if (event === 'assignmentCompleted' || event === 'assignmentDidNotPass') {
					const a = assignments.get(id);
					const want = a?.status === 'completed' ? 'assignmentCompleted' : 'assignmentDidNotPass';
					if (!a) {
						note('unexpected', `${event} ${id} (not an assignment this test finished)`, T);
						continue;
					}
					if (a.emitted > 0) note('duplicate', `${event} ${id} again at ${iso(T)}`, T);
					else if (a.history)
						note('unexpected', `${event} ${id} from before the starting point`, T);
					else if (!assignmentMatches(a, active))
						note('unexpected', `${event} ${id} outside the filters`, T);
					else if (event !== want || row.status !== a.status)
						note('wrong', `${event} ${id}: status ${row.status} (expected ${a.status})`, T);
					a.emitted++;
				} else note('unexpected', `event ${event}`, T);
			}
			// A starting point makes everything shown so far history.
			// Deadlines: a session by the second read after its score shows; an assignment 6 h + 2 reads.
			for (const s of sessions.values())
				if (
					!s.emitted &&
					!s.history &&
					!s.optional &&
					sessionMatches(s, active) &&
					s.shownAt < lastOk &&
					p > 0
				) {
					note(
						'missed',
						`Session Scored ${s.id} (${s.member.email}, ${s.score}) shown ${iso(s.shownAt)}, not by ${iso(T)}`,
						T,
					);
					s.history = true;
				}
			for (const a of assignments.values())
				if (
					!a.emitted &&
					!a.history &&
					!a.optional &&
					assignmentMatches(a, active) &&
					T - a.finishedAt > 8 * HOUR
				) {
					note('missed', `${a.status} ${a.id} finished ${iso(a.finishedAt)}, not by ${iso(T)}`, T);
					a.history = true;
				}

			lastOk = T;
		}

		// After the poll: an edit of the filters or a restart.
		if (p >= polls.length - 10) continue;
		const r = rand();
		if (r < 0.04) {
			const e = rand();
			if (e < 0.4) {
				const m = pick(world.members);
				config.memberEmails = config.memberEmails.includes(m.email)
					? config.memberEmails.filter((x) => x !== m.email)
					: [...config.memberEmails, m.email];
			} else if (e < 0.7) config.groupIds = rand() < 0.5 ? [] : [pick(world.groups).id];
			else
				config.scoreBelow =
					config.scoreBelow === undefined ? 40 + Math.floor(rand() * 40) : undefined;
			const before = active;
			active = snapshot();
			harness.setParameters(practiceParameters(active));
			const changed = JSON.stringify(before) !== JSON.stringify(active);
			const membersChanged = before.memberEmails.join() !== active.memberEmails.join();
			log.push([
				T,
				`filters edited: members ${active.memberEmails.length}, groups ${active.groupIds.length}, score below ${active.scoreBelow}`,
			]);
			// The docs: changed filters start from empty state (an edit that changes nothing is none).
			if (changed) {
				emptyRead = membersChanged || emptyRead === 'all' ? 'all' : 'sessions';
				savedEver = false;
			}
		} else if (r < 0.07) {
			harness.restart();
			log.push([T, 'n8n restarted']);
			// Nothing saved since the last starting point (1.x saves on emit only): a new starting point.
			if (!savedEver) emptyRead = 'all';
		} else if (r < 0.09) {
			harness = newHarness(++harnesses);
			savedEver = false;
			log.push([T, 'restarted with empty static data']);
			emptyRead = 'all';
		}
	}
	return { counts, examples, emitted };
}

describe('Practice Results against a docs-derived oracle', () => {
	let rig: TriggerRig;
	const realNow = Date.now;
	const retryDelays = { ...RETRY };
	beforeAll(async () => {
		rig = await startRig();
		Date.now = () => rig.clock.now();
		// Retries of a failed read wait real time: 1 ms here, the count of attempts unchanged.
		Object.assign(RETRY, { baseDelayMs: 1, maxDelayMs: 1 });
	});
	afterAll(async () => {
		Date.now = realNow;
		Object.assign(RETRY, retryDelays);
		await rig.close();
	});

	test(`${SEQUENCES} sequences of ${HOURS} hours: 0 missed, 0 duplicate, 0 unexpected, 0 wrong`, async () => {
		const counts = zero();
		const examples: string[] = [];
		let emitted = 0;
		for (let i = FIRST; i < FIRST + SEQUENCES; i++) {
			const r = await runSequence(rig, 41_000 + i);
			if (process.env.ORACLE_DUMP)
				appendFileSync(process.env.ORACLE_DUMP, r.examples.map((e) => `${e}\n`).join(''));
			for (const k of Object.keys(counts) as Kind[]) counts[k] += r.counts[k];
			if (examples.length < 12) examples.push(...r.examples.slice(0, 12 - examples.length));
			emitted += r.emitted;
		}
		process.stdout.write(
			`practiceOracle: ${SEQUENCES} sequences, ${emitted} events; ${JSON.stringify(counts)}\n`,
		);
		expect({ counts, examples }).toEqual({ counts: zero(), examples: [] });
	}, 1_200_000);
});
