/**
 * Randomised exactly-once check for Practice Results: reproducible sequences of practice against one
 * simulator, each from a fresh seed state and a fresh trigger, with the stories a workspace allows:
 * members practising (scored now, scored late, listed late, listed more than Lookback Hours late), bursts
 * of more than a page, assignments given by admins and by programs, assignments finished or put past due
 * by an admin with no session, assignments created and finished between two reads, filters (scenario,
 * a scenario nobody practised at activation, program, members, rank), clock steps back of up to 10
 * minutes, failed polls, n8n restarts (emit-only), re-activation, Hours Between Open Reads 0, 6 and
 * 24 (the per-read bound of outcomes given between open reads: practiceOracle.test.ts, issue 54).
 *
 * The oracle is the simulator's own record, never the trigger's rules:
 * - completed / did not pass (c|id, d|id): every move of a matching assignment to that status in the
 *   simulator's assignment log after the activation; required when it happened before the final read;
 * - past due (p|id): every move to past_due after the activation is allowed; required when the
 *   assignment is still past due at the final read (a passing state need not be seen);
 * - session scored (s|id): every matching session scored after the activation is allowed; required
 *   unless it was created more than Lookback Hours before the newest matching session (docs exclude it).
 * Anything emitted outside "allowed" is unexpected (history included); an id emitted twice for one event
 * is a duplicate. Missed, duplicated and unexpected are counted separately, per event.
 */
import type { PollHarness, Persistence } from '../../n8n-harness/pollHarness';
import type { AssignmentChange, AssignmentRec } from '../../simulator/state/types';
import { rankFor } from '../../simulator/state/seed';
import { startRig, type TriggerRig } from './setup';
import { PRACTICE_EVENTS, practiceEventsOf, practiceTrigger } from './practiceSetup';
import { memberRows } from '../actions/support';
import { mulberry32 } from '../../simulator/state/random';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: async () => {} }));

const SEQUENCES = Number(
	process.env.PRACTICE_SEQUENCES ?? (process.env.WSP_DEEP === '1' ? 2000 : 300),
);
const SEED = Number(process.env.PRACTICE_SEED ?? 20261125);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LOOKBACK = 6 * HOUR;
const KEY_EVENT: Record<string, string> = {
	s: 'sessionScored',
	c: 'assignmentCompleted',
	d: 'assignmentDidNotPass',
	p: 'assignmentPastDue',
};
const PREFIX: Record<string, string> = Object.fromEntries(
	Object.entries(KEY_EVENT).map(([k, v]) => [v, k]),
);
const STATUS_KEY: Partial<Record<AssignmentChange['to'], string>> = {
	completed: 'c',
	did_not_pass: 'd',
	past_due: 'p',
};

let rig: TriggerRig;
// The trigger paces on the host's clock: a host clock that moves with the story, never back.
const realNow = Date.now;
let host = Date.parse('2026-11-25T00:00:00Z');
beforeAll(async () => {
	rig = await startRig();
	Date.now = () => host;
});
afterAll(async () => {
	Date.now = realNow;
	await rig.close();
});

const PEOPLE = [
	'jane@acme.com',
	'bob@acme.com',
	'carla@acme.com',
	'dev@acme.com',
	'hal@acme.com',
	'support@exec.com',
];

type Count = Record<'missed' | 'duplicates' | 'unexpected', Record<string, number>>;
interface Tally {
	polls: number;
	failedPolls: number;
	bursts: number;
	lateScores: number;
	lateArrivals: number;
	oldSessions: number;
	adminFinishes: number;
	createdAndFinished: number;
	programAssignments: number;
	clockStepsBack: number;
	restarts: number;
	reactivations: number;
	midReadChanges: number;
	filters: Record<string, number>;
	emitted: number;
	required: number;
	count: Count;
}

interface Filter {
	name: string;
	form: Record<string, unknown>;
	scenarios?: string[];
	programs?: string[];
	users?: string[];
	ranks?: string[];
}

/** One activation: where the simulator's record stood when it took its starting point. */
interface Period {
	trigger: PollHarness;
	logStart: number;
	scoredAtStart: Set<string>;
}

/** Runs one sequence; returns what went wrong, if anything (every sequence runs, so the totals are whole). */
async function runSequence(index: number, tally: Tally): Promise<string | undefined> {
	const seed = SEED + index * 7919;
	const random = mulberry32(seed);
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
	const chance = (p: number) => random() < p;
	const control = rig.sim.control;
	rig.reset(60_000 + Math.floor(random() * 1000));
	const store = control.store;
	const fx = control.fixtures();
	const scenarios = [
		fx.scenarios.procurementDiscovery.id,
		fx.scenarios.discoveryCall.id,
		fx.scenarios.coldCall.id,
	];
	const programs = [fx.programs.q1Onboarding.id, fx.programs.salesBootcamp.id];
	const now = () => Date.parse(control.now());
	const advance = (ms: number) => {
		control.advance(ms);
		host += ms;
	};
	const assign = (extra: Record<string, unknown> = {}) =>
		control.addAssignment({
			userEmail: pick(PEOPLE),
			scenario: pick(scenarios),
			dueDate: now() + Math.floor(random() * 4 * HOUR),
			attemptMin: 1 + Math.floor(random() * 2),
			attemptMax: chance(0.5) ? 2 + Math.floor(random() * 2) : null,
			rankMin: pick(['gold', 'silver', 'bronze', null] as const),
			programId: chance(0.3) ? pick(programs) : null,
			...extra,
		});
	for (let i = 0; i < 6; i++) assign();
	// History: given and finished before the activation, some within its second.
	for (let i = 0; i < 3; i++)
		control.setAssignmentStatus(assign().id, pick(['completed', 'did_not_pass'] as const));
	advance(pick([0, 0, 1000, MINUTE]));

	const events = chance(0.5) ? [...PRACTICE_EVENTS] : PRACTICE_EVENTS.filter(() => chance(0.5));
	if (events.length === 0) events.push(pick(PRACTICE_EVENTS));
	const persistence: Persistence = chance(0.5) ? 'staged' : 'emit-only';
	const bob = store.userByEmail('bob@acme.com')!.id;
	const carla = store.userByEmail('carla@acme.com')!.id;
	const filters: Filter[] = [
		{ name: 'none', form: {} },
		{ name: 'scenario', form: { scenario_ids: [scenarios[0]] }, scenarios: [scenarios[0]] },
		// Nobody has practised it, nobody is assigned it: the filter matches nothing at activation.
		{ name: 'unpractised', form: { scenario_ids: [scenarios[2]] }, scenarios: [scenarios[2]] },
		{ name: 'program', form: { program_ids: programs[0] }, programs: [programs[0]] },
		{
			name: 'members',
			form: { members: memberRows(['bob@acme.com', 'email'], [carla, 'id']) },
			users: [bob, carla],
		},
		{ name: 'rank', form: { rank: ['gold'] }, ranks: ['gold'] },
	];
	const filter = pick(filters);
	tally.filters[filter.name] = (tally.filters[filter.name] ?? 0) + 1;
	const options: Record<string, unknown> = {};
	// Hours Between Open Reads: 0 (every read), 6, or 24 (the default; said explicitly, since
	// practiceTrigger's own default is 0: before issue 54 every sequence here ran at 0).
	const openRoll = random();
	options.openReadHours = openRoll < 0.5 ? 0 : openRoll < 0.75 ? 6 : 24;
	if (chance(0.5)) options.maxReadsPerDay = 48; // the default quota; else every poll reads
	const openReadMs = (options.openReadHours as number) * HOUR;
	const context = `sequence ${index} (PRACTICE_SEED=${SEED}, seed ${seed}, ${events.join(',')}, ${persistence}, filter ${filter.name}, ${JSON.stringify(options)})`;

	const matchesAssignment = (a: AssignmentRec | undefined) =>
		a !== undefined &&
		(!filter.scenarios || filter.scenarios.includes(a.scenarioId)) &&
		(!filter.programs || (a.programId !== null && filter.programs.includes(a.programId))) &&
		(!filter.users || filter.users.includes(a.userId));
	// Rank applies to the rows; the window ends at the newest session of any rank (docs).
	const windowSessions = () =>
		store.data.sessions.filter(
			(s) =>
				s.score !== null &&
				(!filter.scenarios || filter.scenarios.includes(s.scenarioId)) &&
				(!filter.users || filter.users.includes(s.userId)),
		);
	const matchingSessions = () =>
		windowSessions().filter((s) => !filter.ranks || filter.ranks.includes(rankFor(s.score!)));

	const emitted: string[] = [];
	const required = new Set<string>();
	const allowed = new Set<string>();

	const activate = async (): Promise<Period> => {
		// A new activation reads at once (the quota remembers the reads of this workflow's node).
		host += DAY;
		const trigger = await practiceTrigger(rig, events, filter.form, options, persistence);
		return {
			trigger,
			logStart: control.assignmentLog().length,
			scoredAtStart: new Set(store.data.sessions.filter((s) => s.score !== null).map((s) => s.id)),
		};
	};

	const practice = () => {
		const roll = random();
		if (roll < 0.3)
			control.addSession({
				userEmail: pick(PEOPLE),
				scenario: pick(scenarios),
				score: Math.floor(random() * 101),
			});
		else if (roll < 0.5) control.addSession({ userEmail: pick(PEOPLE), scenario: pick(scenarios) });
		else if (roll < 0.6) {
			tally.lateScores++;
			control.scorePending(1 + Math.floor(random() * 3));
		} else if (roll < 0.68) {
			tally.lateArrivals++;
			control.addSession({
				userEmail: pick(PEOPLE),
				scenario: pick(scenarios),
				score: Math.floor(random() * 101),
				lateByMs: Math.floor(random() * HOUR),
			});
		} else if (roll < 0.74) {
			// Listed for the first time though created before the lookback: it may still finish an assignment.
			tally.oldSessions++;
			control.addSession({
				userEmail: pick(PEOPLE),
				scenario: pick(scenarios),
				score: 80 + Math.floor(random() * 21),
				lateByMs: LOOKBACK + Math.floor(random() * 4 * HOUR),
			});
		} else if (roll < 0.86) {
			const open = store.data.assignments.filter(
				(a) => a.status === 'not_started' || a.status === 'in_progress' || a.status === 'past_due',
			);
			if (open.length === 0) return;
			tally.adminFinishes++;
			control.setAssignmentStatus(
				pick(open).id,
				pick(['completed', 'completed', 'did_not_pass', 'past_due'] as const),
			);
		} else if (roll < 0.94) {
			tally.createdAndFinished++;
			const a = assign();
			control.setAssignmentStatus(a.id, pick(['completed', 'did_not_pass'] as const));
		} else {
			tally.programAssignments++;
			assign({ programId: pick(programs) });
		}
	};

	const poll = async (period: Period, how: 'plain' | 'fail' | 'quiet') => {
		const trigger = period.trigger;
		tally.polls++;
		const before = JSON.stringify(trigger.stored);
		const failAt = how === 'fail' ? 1 + Math.floor(random() * 3) : undefined;
		const changeAt = how === 'plain' && chance(0.3) ? 1 + Math.floor(random() * 4) : undefined;
		if (failAt !== undefined)
			rig.proxy.onRequest((count) => count === failAt && control.failNext(4));
		else if (changeAt !== undefined)
			rig.proxy.onRequest((count) => {
				if (count !== changeAt) return;
				tally.midReadChanges++;
				practice();
			});
		const outcome = await trigger.poll();
		rig.proxy.onRequest(undefined);
		control.failNext(0);
		if (outcome.error) {
			tally.failedPolls++;
			if (failAt === undefined)
				throw new Error(`${context}: unexpected poll error ${outcome.error.message}`);
			if (outcome.items.length) throw new Error(`${context}: a failed poll emitted`);
			if (JSON.stringify(trigger.stored) !== before)
				throw new Error(`${context}: a failed poll moved the stored state`);
			return;
		}
		for (const e of practiceEventsOf(outcome.items)) emitted.push(`${PREFIX[e.event]}|${e.id}`);
	};

	/** The last reads of an activation (time for the open read and for a read the quota allows), then its oracle. */
	const settle = async (period: Period) => {
		const wait = Math.max(openReadMs, 30 * MINUTE) + MINUTE;
		advance(wait);
		await poll(period, 'quiet');
		advance(wait);
		const log = control.assignmentLog();
		const scored = matchingSessions();
		await poll(period, 'quiet');
		for (let i = period.logStart; i < log.length; i++) {
			const change = log[i];
			const key = STATUS_KEY[change.to];
			const a = store.data.assignments.find((x) => x.id === change.id);
			if (!key || !matchesAssignment(a)) continue;
			allowed.add(`${key}|${change.id}`);
			if (key !== 'p' || a?.status === 'past_due') required.add(`${key}|${change.id}`);
		}
		const newest = Math.max(0, ...windowSessions().map((s) => s.createdAt));
		for (const s of scored) {
			if (period.scoredAtStart.has(s.id)) continue;
			allowed.add(`s|${s.id}`);
			if (s.createdAt >= newest - LOOKBACK) required.add(`s|${s.id}`);
		}
		for (const s of matchingSessions())
			if (!period.scoredAtStart.has(s.id)) allowed.add(`s|${s.id}`);
		for (const change of control.assignmentLog().slice(log.length)) {
			const key = STATUS_KEY[change.to];
			if (key) allowed.add(`${key}|${change.id}`);
		}
	};

	let period = await activate();
	const steps = 4 + Math.floor(random() * 10);
	for (let step = 0; step < steps; step++) {
		const roll = random();
		if (roll < 0.33) practice();
		else if (roll < 0.36) {
			tally.bursts++;
			// More than one list page in one second.
			control.simulatePractice({
				sessions: 101 + Math.floor(random() * 40),
				unscoredShare: 0.3,
				lateShare: 0.2,
				lateByMs: 1_800_000,
				formerOrSystemShare: 0.1,
			});
		} else if (roll < 0.41) assign();
		else if (roll < 0.55) advance(pick([0, 1000, MINUTE, 20 * MINUTE, 45 * MINUTE, 3 * HOUR]));
		else if (roll < 0.58) {
			// The service's clock steps back (the host's does not).
			tally.clockStepsBack++;
			control.setTime(now() - Math.floor(random() * 10 * MINUTE));
		} else if (roll < 0.66) await poll(period, 'fail');
		else if (roll < 0.68) {
			tally.reactivations++;
			await settle(period);
			period = await activate();
		} else {
			await poll(period, 'plain');
			if (chance(0.3)) await poll(period, 'plain');
			if (
				persistence === 'emit-only' &&
				chance(0.2) &&
				(period.trigger.stored as { v?: string }).v
			) {
				tally.restarts++;
				period.trigger.restart();
			}
		}
	}
	await settle(period);

	const chosen = (key: string) => events.includes(KEY_EVENT[key[0]] as never);
	const seen = new Set<string>();
	const duplicates = emitted.filter((key) => (seen.has(key) ? true : (seen.add(key), false)));
	const missed = [...required].filter((key) => chosen(key) && !seen.has(key));
	const extra = [...seen].filter((key) => !allowed.has(key) || !chosen(key));
	tally.emitted += emitted.length;
	tally.required += [...required].filter(chosen).length;
	const add = (kind: keyof Count, keys: string[]) => {
		for (const key of keys)
			tally.count[kind][KEY_EVENT[key[0]]] = (tally.count[kind][KEY_EVENT[key[0]]] ?? 0) + 1;
	};
	add('missed', missed);
	add('duplicates', duplicates);
	add('unexpected', extra);
	return duplicates.length || missed.length || extra.length
		? `${context}: ${duplicates.length} duplicates ${JSON.stringify(duplicates.slice(0, 3))}, ${missed.length} missed ${JSON.stringify(missed.slice(0, 3))}, ${extra.length} unexpected ${JSON.stringify(extra.slice(0, 3))}`
		: undefined;
}

test(`${SEQUENCES} random practice sequences: every outcome emitted once, no history, none missed`, async () => {
	const tally: Tally = {
		polls: 0,
		failedPolls: 0,
		bursts: 0,
		lateScores: 0,
		lateArrivals: 0,
		oldSessions: 0,
		adminFinishes: 0,
		createdAndFinished: 0,
		programAssignments: 0,
		clockStepsBack: 0,
		restarts: 0,
		reactivations: 0,
		midReadChanges: 0,
		filters: {},
		emitted: 0,
		required: 0,
		count: { missed: {}, duplicates: {}, unexpected: {} },
	};
	const failures: string[] = [];
	const only = process.env.PRACTICE_SEQUENCE;
	for (let index = 0; index < SEQUENCES; index++) {
		if (only !== undefined && index !== Number(only)) continue;
		const failure = await runSequence(index, tally);
		if (failure) failures.push(failure);
	}
	process.stdout.write(`randomised practice trigger run: ${JSON.stringify(tally)}\n`);
	// Each failure names its sequence and seed: PRACTICE_SEQUENCE=<n> replays one.
	expect(failures.slice(0, 5)).toEqual([]);
	expect(tally.count).toEqual({ missed: {}, duplicates: {}, unexpected: {} });
	if (SEQUENCES >= 2000 && only === undefined) {
		expect(tally.failedPolls).toBeGreaterThan(200);
		expect(tally.bursts).toBeGreaterThan(100);
		expect(tally.oldSessions).toBeGreaterThan(300);
		expect(tally.adminFinishes).toBeGreaterThan(500);
		expect(tally.createdAndFinished).toBeGreaterThan(300);
		expect(tally.clockStepsBack).toBeGreaterThan(300);
		expect(tally.restarts).toBeGreaterThan(20);
		expect(tally.reactivations).toBeGreaterThan(200);
		expect(tally.midReadChanges).toBeGreaterThan(300);
		expect(Object.keys(tally.filters)).toHaveLength(6);
	}
	// The limit only stops a hang: a loaded 2-core machine runs this far slower (issue 41); the
	// assertions count events, not time.
}, 2_400_000);
