/**
 * Randomised exactly-once check for Practice Results: 1,000 reproducible sequences of practice against
 * one simulator, each from a fresh seed state and a fresh trigger.
 *
 * The oracle, on the states successful polls could observe (the lists show current states only):
 * - session scored:  s|id  every session with a score (in the filter) not scored at activation;
 * - completed:       c|id  every assignment completed, not completed at activation;
 * - did not pass:    d|id  likewise for did_not_pass;
 * - past due:        p|id  every assignment a successful poll saw past due, not past due at activation.
 * A past-due state replaced before any successful poll saw it is allowed, not required. A change made
 * while a poll reads may or may not be seen by that poll: required from the next poll on.
 */
import type { Persistence } from '../../n8n-harness/pollHarness';
import { startRig, type TriggerRig } from './setup';
import { PRACTICE_EVENTS, practiceEventsOf, practiceTrigger } from './practiceSetup';
import { mulberry32 } from '../../simulator/state/random';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: async () => {} }));

const SEQUENCES = Number(process.env.PRACTICE_SEQUENCES ?? 1000);
const SEED = 20260322;
const KEY_EVENT: Record<string, string> = {
	s: 'sessionScored',
	c: 'assignmentCompleted',
	d: 'assignmentDidNotPass',
	p: 'assignmentPastDue',
};
const PREFIX: Record<string, string> = Object.fromEntries(
	Object.entries(KEY_EVENT).map(([k, v]) => [v, k]),
);

let rig: TriggerRig;
beforeAll(async () => {
	rig = await startRig();
});
afterAll(async () => rig.close());

const PEOPLE = [
	'bob@acme.com',
	'carla@acme.com',
	'dev@acme.com',
	'hal@acme.com',
	'support@exec.com',
];

interface Tally {
	polls: number;
	failedPolls: number;
	bursts: number;
	lateScores: number;
	lateArrivals: number;
	restarts: number;
	/** Polls of a twin trigger just before the trigger's, sharing its list reads. */
	twinPolls: number;
	midReadChanges: number;
	filtered: number;
	emitted: number;
	missed: number;
	duplicates: number;
	unexpected: number;
}

function observableKeys(scenarioId?: string): Set<string> {
	const control = rig.sim.control;
	control.tick();
	const keys = new Set<string>();
	for (const s of control.store.data.sessions)
		if (s.score !== null && (!scenarioId || s.scenarioId === scenarioId)) keys.add(`s|${s.id}`);
	for (const a of control.store.data.assignments) {
		if (scenarioId && a.scenarioId !== scenarioId) continue;
		if (a.status === 'completed') keys.add(`c|${a.id}`);
		if (a.status === 'did_not_pass') keys.add(`d|${a.id}`);
		if (a.status === 'past_due') keys.add(`p|${a.id}`);
	}
	return keys;
}

/** Runs one sequence; returns what went wrong, if anything (every sequence runs, so the totals are whole). */
async function runSequence(index: number, tally: Tally): Promise<string | undefined> {
	const random = mulberry32(SEED + index * 7919);
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
	const chance = (p: number) => random() < p;
	const control = rig.sim.control;
	rig.reset(60_000 + Math.floor(random() * 1000));
	const fx = control.fixtures();
	const scenarios = [fx.scenarios.procurementDiscovery.id, fx.scenarios.discoveryCall.id];
	const now = () => Date.parse(control.now());
	// Open assignments due within the next hours, some with few attempts allowed.
	const store = control.store;
	const template = store.data.assignments[4];
	const assign = () =>
		store.data.assignments.push({
			...template,
			id: `r${index}-${store.data.assignments.length}`,
			userId: store.userByEmail(pick(PEOPLE))!.id,
			scenarioId: pick(scenarios),
			status: 'not_started',
			dueDate: store.stamp(now() + Math.floor(random() * 4 * 3_600_000)),
			attemptMin: 1 + Math.floor(random() * 2),
			attemptMax: chance(0.5) ? 1 + Math.floor(random() * 3) : null,
			rankMin: pick(['gold', 'silver', 'bronze', null] as const),
			createdAt: store.stamp(now()),
		});
	for (let i = 0; i < 6; i++) assign();

	const events = chance(0.5) ? [...PRACTICE_EVENTS] : PRACTICE_EVENTS.filter(() => chance(0.5));
	if (events.length === 0) events.push(pick(PRACTICE_EVENTS));
	const persistence: Persistence = chance(0.5) ? 'staged' : 'emit-only';
	const scenarioFilter = index % 4 === 3 ? scenarios[0] : undefined;
	if (scenarioFilter) tally.filtered++;
	const context = `sequence ${index} (seed ${SEED}, ${events.join(',')}, ${persistence}${scenarioFilter ? ', scenario filter' : ''})`;

	const baseline = observableKeys(scenarioFilter);
	const trigger = await practiceTrigger(
		rig,
		events,
		scenarioFilter ? { scenario_ids: [scenarioFilter] } : {},
		{},
		persistence,
	);
	// Half the sequences run a twin on the same key and settings, polled just before the trigger: its
	// list reads are then shared with the trigger's (transport/sharedReads.ts). Its own random source,
	// so the sequences are the same as without it.
	const twinRandom = mulberry32(SEED + index * 104_729);
	const twin =
		twinRandom() < 0.5
			? await practiceTrigger(rig, events, scenarioFilter ? { scenario_ids: [scenarioFilter] } : {})
			: undefined;
	const expected = new Set<string>();
	const allowed = new Set<string>();
	const emitted: string[] = [];

	const practice = () => {
		const roll = random();
		if (roll < 0.4)
			control.addSession({
				userEmail: pick(PEOPLE),
				scenario: pick(scenarios),
				score: Math.floor(random() * 101),
			});
		else if (roll < 0.7) control.addSession({ userEmail: pick(PEOPLE), scenario: pick(scenarios) });
		else if (roll < 0.85) {
			tally.lateScores++;
			control.scorePending(1 + Math.floor(random() * 3));
		} else {
			tally.lateArrivals++;
			control.addSession({
				userEmail: pick(PEOPLE),
				scenario: pick(scenarios),
				score: Math.floor(random() * 101),
				lateByMs: Math.floor(random() * 3_600_000),
			});
		}
	};

	const poll = async (failAt?: number) => {
		tally.polls++;
		if (twin && twinRandom() < 0.7) {
			tally.twinPolls++;
			const shadow = await twin.poll();
			if (shadow.error) throw new Error(`${context}: the twin failed: ${shadow.error.message}`);
		}
		const before = trigger.stored;
		const state = observableKeys(scenarioFilter);
		const changeAt = failAt === undefined && chance(0.3) ? 1 + Math.floor(random() * 4) : undefined;
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
			if (JSON.stringify(trigger.stored) !== JSON.stringify(before))
				throw new Error(`${context}: a failed poll moved the stored state`);
			return;
		}
		const after = observableKeys(scenarioFilter);
		for (const key of state) {
			if (baseline.has(key)) continue;
			// Past due is a passing state; the others last (scores and finished assignments stay).
			if (key[0] !== 'p' || changeAt === undefined || after.has(key)) expected.add(key);
			else allowed.add(key);
		}
		for (const key of after) if (!baseline.has(key)) allowed.add(key);
		for (const e of practiceEventsOf(outcome.items)) emitted.push(`${PREFIX[e.event]}|${e.id}`);
	};

	const steps = 4 + Math.floor(random() * 8);
	for (let step = 0; step < steps; step++) {
		const roll = random();
		if (roll < 0.35) practice();
		else if (roll < 0.4) {
			tally.bursts++;
			// More than one list page in one second.
			control.simulatePractice({
				sessions: 101 + Math.floor(random() * 40),
				unscoredShare: 0.3,
				lateShare: 0.2,
				lateByMs: 1_800_000,
				formerOrSystemShare: 0.1,
			});
		} else if (roll < 0.45) assign();
		else if (roll < 0.6) control.advance(pick([0, 1000, 60_000, 20 * 60_000, 45 * 60_000]));
		else if (roll < 0.7) await poll(1 + Math.floor(random() * 3));
		else {
			await poll();
			if (chance(0.3)) await poll();
			if (persistence === 'emit-only' && chance(0.2) && (trigger.stored as { v?: string }).v) {
				tally.restarts++;
				trigger.restart();
			}
		}
	}
	await poll();
	await poll();

	const chosen = [...expected].filter((key) => events.includes(KEY_EVENT[key[0]] as never));
	const seen = new Set<string>();
	const duplicates = emitted.filter((key) => (seen.has(key) ? true : (seen.add(key), false)));
	const missed = chosen.filter((key) => !seen.has(key));
	const extra = [...seen].filter((key) => !expected.has(key) && !allowed.has(key));
	tally.emitted += emitted.length;
	tally.missed += missed.length;
	tally.duplicates += duplicates.length;
	tally.unexpected += extra.length;
	return duplicates.length || missed.length || extra.length
		? `${context}: ${duplicates.length} duplicates ${JSON.stringify(duplicates.slice(0, 3))}, ${missed.length} missed ${JSON.stringify(missed.slice(0, 3))}, ${extra.length} unexpected ${JSON.stringify(extra.slice(0, 3))}`
		: undefined;
}

test(`${SEQUENCES} random practice sequences: every change emitted exactly once, none missed`, async () => {
	const tally: Tally = {
		polls: 0,
		failedPolls: 0,
		bursts: 0,
		lateScores: 0,
		lateArrivals: 0,
		restarts: 0,
		twinPolls: 0,
		midReadChanges: 0,
		filtered: 0,
		emitted: 0,
		missed: 0,
		duplicates: 0,
		unexpected: 0,
	};
	const failures: string[] = [];
	for (let index = 0; index < SEQUENCES; index++) {
		const failure = await runSequence(index, tally);
		if (failure) failures.push(failure);
	}
	process.stdout.write(`randomised practice trigger run: ${JSON.stringify(tally)}\n`);
	expect(failures.slice(0, 5)).toEqual([]);
	expect([tally.missed, tally.duplicates, tally.unexpected]).toEqual([0, 0, 0]);
	if (SEQUENCES === 1000) {
		expect(tally.failedPolls).toBeGreaterThan(100);
		expect(tally.bursts).toBeGreaterThan(100);
		expect(tally.lateScores).toBeGreaterThan(300);
		expect(tally.lateArrivals).toBeGreaterThan(300);
		expect(tally.restarts).toBeGreaterThan(20);
		expect(tally.twinPolls).toBeGreaterThan(500);
		expect(tally.midReadChanges).toBeGreaterThan(300);
		expect(tally.filtered).toBe(SEQUENCES / 4);
	}
}, 600_000);
