/**
 * Practice Results under n8n's poll budget (issue 47): reproducible sequences against a slow service,
 * with the stories of budgetStories.ts (reads cut by the 36 s budget and continued, polls started
 * together or during a read, polls abandoned by the durable scheduler, restarts with empty memory
 * between polls and during a read, n8n 1.x's emit-only static data, writes between two pages of a read,
 * declared failures) and Options → Max Reads a Day 1 with a read continued over polls.
 *
 * The oracle is the simulator's own record (as practiceRandomised.test.ts), never the trigger's rules:
 * - Session Scored s|id: every session scored after the activation is allowed, and required (every
 *   session here is created within Lookback Hours of the newest);
 * - Assignment Completed / Did Not Pass c|id, d|id: every move to that status in the simulator's
 *   assignment log after the activation, required; Past Due p|id: allowed, required when the assignment
 *   is still past due at the end;
 * - missed: required, never delivered; duplicate: delivered twice; unexpected: delivered and not
 *   allowed (history, an event not chosen); out of order: a session scored when created delivered after
 *   one created later (a continued read goes on from where it stopped, oldest first).
 * - Polls: none sends a request after n8n abandoned it; a poll begun during the read sends, emits and
 *   fails nothing; a failure is declared; with Max Reads a Day 1 the continued read completes the same
 *   day, and no poll after it sends a request until the quota refills.
 *
 * Blocks: the main stories (2 to 8 s a request); a Max Reads a Day 1 day begun by an abandoned poll;
 * assignment reads whose finished part and look-ups take more than a poll at 12 s a request (a
 * documented limit: `test.failing`).
 *
 * PRACTICE_BUDGET_SEQUENCES (default 40), PRACTICE_BUDGET_ONLY=<index> with PRACTICE_BUDGET_STORY=<block>
 * (one, traced) and BUDGET_TRACE=1 (every poll) replay.
 */
import { startRig, type TriggerRig } from './setup';
import { PRACTICE_EVENTS, practiceEventsOf } from './practiceSetup';
import { mulberry32 } from '../../simulator/state/random';
import type { AssignmentChange } from '../../simulator/state/types';
import {
	DAY,
	HOUR,
	MINUTE,
	SCHEDULERS,
	PollDriver,
	startVirtualTime,
	addCounts,
	zeroCounts,
	type Fault,
	type PollCounts,
	type RequestHook,
	type Scheduler,
} from './budgetStories';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

const SEQUENCES = Number(process.env.PRACTICE_BUDGET_SEQUENCES ?? 40);
const ONLY =
	process.env.PRACTICE_BUDGET_ONLY === undefined
		? undefined
		: Number(process.env.PRACTICE_BUDGET_ONLY);
const BATCH = 4;
/** PRACTICE_BUDGET_STORY=main|assignments|abandonedDay: with PRACTICE_BUDGET_ONLY, which block's sequence. */
const ONLY_STORY = process.env.PRACTICE_BUDGET_STORY;
const SEED = 20261129;
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
const PEOPLE = [
	'jane@acme.com',
	'bob@acme.com',
	'carla@acme.com',
	'dev@acme.com',
	'hal@acme.com',
	'support@exec.com',
];

let rig: TriggerRig;
beforeAll(async () => {
	rig = await startRig();
});
afterAll(async () => {
	rig.slow.stop();
	await rig.close();
});

interface Judged {
	missed: number;
	duplicates: number;
	unexpected: number;
	outOfOrder: number;
	missedSameDay: number;
	/** The same, in stories whose day began with a poll the durable scheduler abandoned. */
	missedSameDayAfterAbandon: number;
	emitted: number;
	required: number;
}
const zeroJudged = (): Judged => ({
	missed: 0,
	duplicates: 0,
	unexpected: 0,
	outOfOrder: 0,
	missedSameDay: 0,
	missedSameDayAfterAbandon: 0,
	emitted: 0,
	required: 0,
});

interface Result {
	judged: Judged;
	polls: PollCounts;
	failure?: string;
	quotaStory: boolean;
	scheduler: Scheduler;
}

/** Keys counted by their first letter (the event). */
const byKind = (keys: string[]) =>
	keys.reduce<Record<string, number>>((n, key) => ({ ...n, [key[0]]: (n[key[0]] ?? 0) + 1 }), {});

/**
 * 'main': the stories above at 2 to 8 s a request; 'assignments': 12 s a request (2 requests a poll),
 * where an assignment read's finished part and look-ups take more than a poll (docs/triggers.md);
 * 'abandonedDay': Max Reads a Day 1, the day's first poll abandoned by the durable scheduler.
 */
type Story = 'main' | 'assignments' | 'abandonedDay';
const STORY_SEED: Record<Story, number> = {
	main: 0,
	assignments: 1_000_003,
	abandonedDay: 2_000_003,
};

async function runSequence(index: number, story: Story = 'main'): Promise<Result> {
	const seed = SEED + index * 7919 + STORY_SEED[story];
	const random = mulberry32(seed);
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
	const chance = (p: number) => random() < p;
	const control = rig.sim.control;
	const { store } = control;
	const trace = (line: string) => {
		if (ONLY !== undefined) process.stdout.write(`${line}\n`);
	};

	rig.reset(60_000 + Math.floor(random() * 1000));
	const fx = control.fixtures();
	const scenarios = [
		fx.scenarios.procurementDiscovery.id,
		fx.scenarios.discoveryCall.id,
		fx.scenarios.coldCall.id,
	];
	const now = () => Date.parse(control.now());
	const scheduler: Scheduler =
		story === 'main'
			? SCHEDULERS[index % SCHEDULERS.length]
			: story === 'assignments'
				? (['durable', 'cut-emit-only'] as const)[index % 2]
				: 'durable';
	const quotaStory = story === 'abandonedDay' || (story === 'main' && index % 5 === 4);
	const latency = story === 'assignments' ? 12_000 : pick([2_000, 3_000, 5_000, 8_000]);
	const events =
		story === 'assignments' || chance(0.5)
			? [...PRACTICE_EVENTS]
			: PRACTICE_EVENTS.filter(() => chance(0.6));
	if (events.length === 0) events.push('sessionScored');
	const openReadHours = pick([0, 0, 1]);
	const context = `${story} sequence ${index} (seed ${seed}, ${scheduler}, latency ${latency / 1000} s, ${events.join(',')}, Hours Between Open Reads ${openReadHours}${quotaStory ? ', Max Reads a Day 1' : ''})`;

	const assign = () =>
		control.addAssignment({
			userEmail: pick(PEOPLE),
			scenario: pick(scenarios),
			// Far off: past due only where a story says so.
			dueDate: now() + 30 * DAY,
			attemptMin: 1,
			attemptMax: null,
			rankMin: null,
			programId: null,
		});
	for (let i = 0; i < 4; i++) assign();

	const driver = new PollDriver(
		rig,
		{
			triggerOn: 'practice',
			practiceEvents: [...events],
			practiceFilters: {},
			practiceOptions: { maxReadsPerDay: quotaStory ? 1 : 0, openReadHours, lookbackHours: 6 },
		},
		scheduler,
		`practice-budget-${index}`,
	);
	startVirtualTime(rig, latency);
	const scoredAtStart = new Set(
		store.data.sessions.filter((s) => s.score !== null).map((s) => s.id),
	);
	const logStart = control.assignmentLog().length;
	const activation = await driver.poll();
	if (!activation.delivered || activation.items.length)
		return {
			judged: zeroJudged(),
			polls: driver.finish(),
			quotaStory,
			scheduler,
			failure: `${context}: the activation failed or emitted (${activation.error?.message ?? `${activation.items.length} items`})`,
		};

	/** Sessions scored as they were created (the order check's). */
	const scoredAtBirth = new Set<string>();
	const unscored: string[] = [];
	const session = () => {
		if (chance(0.15)) {
			unscored.push(control.addSession({ userEmail: pick(PEOPLE), scenario: pick(scenarios) }).id);
			return;
		}
		const s = control.addSession({
			userEmail: pick(PEOPLE),
			scenario: pick(scenarios),
			score: Math.floor(random() * 101),
		});
		scoredAtBirth.add(s.id);
	};
	const open = () =>
		store.data.assignments.filter(
			(a) => a.status === 'not_started' || a.status === 'in_progress' || a.status === 'past_due',
		);
	/** A change between two polls or between two pages of a read. */
	const smallWrite = () => {
		const roll = random();
		if (roll < 0.5) session();
		else if (roll < 0.6 && unscored.length)
			control.scoreSession(unscored.splice(Math.floor(random() * unscored.length), 1)[0], 70);
		else if (roll < 0.75) assign();
		else if (open().length)
			control.setAssignmentStatus(
				pick(open()).id,
				pick(['completed', 'completed', 'did_not_pass', 'past_due'] as const),
			);
	};
	/** A backlog: more list pages than one read of the budget gets through. */
	const burst = (size = 101 + Math.floor(random() * 300)) => {
		for (let i = 0; i < size; i++) {
			session();
			if (chance(0.1)) control.advance(1000);
		}
		for (let i = 0, n = Math.floor(random() * 120); i < n; i++) assign();
		for (let i = 0, n = Math.floor(random() * 60); i < n && open().length; i++)
			control.setAssignmentStatus(pick(open()).id, pick(['completed', 'did_not_pass'] as const));
		control.advance(1000);
	};
	const writesAt =
		(n: number): RequestHook =>
		(k) => {
			if (k !== n) return;
			driver.counts.midReadWrites++;
			for (let i = 0, m = 1 + Math.floor(random() * 3); i < m; i++) smallWrite();
		};

	const keysOf = () =>
		practiceEventsOf(driver.delivered).map((e) => `${PREFIX[e.event] ?? e.event}|${e.id}`);
	/** What the simulator's record requires now. */
	const requiredNow = () => {
		const required = new Set<string>();
		for (const s of store.data.sessions)
			if (s.score !== null && !scoredAtStart.has(s.id)) required.add(`s|${s.id}`);
		const log = control.assignmentLog();
		for (const change of log.slice(logStart)) {
			const key = STATUS_KEY[change.to];
			const a = store.data.assignments.find((x) => x.id === change.id);
			if (key && (key !== 'p' || a?.status === 'past_due')) required.add(`${key}|${change.id}`);
		}
		return [...required].filter((key) => events.includes(KEY_EVENT[key[0]] as never));
	};
	const outstanding = () => {
		const seen = new Set(keysOf());
		return requiredNow().filter((key) => !seen.has(key)).length;
	};
	const anyPoll = async () => {
		driver.wait(MINUTE);
		const roll = random();
		if (roll < 0.4)
			await driver.poll(chance(0.4) ? writesAt(1 + Math.floor(random() * 4)) : undefined);
		else if (roll < 0.52) await driver.pollTogether();
		else if (roll < 0.64) await driver.pollOverlapping(2 + Math.floor(random() * 2));
		else if (roll < 0.76 && scheduler === 'durable')
			await driver.pollStalled(
				1 + Math.floor(random() * 3),
				46_000 + Math.floor(random() * 30_000),
			);
		else if (roll < 0.84) {
			const fault: Fault = pick(['minute', 'day', 'credential', 'unavailable']);
			const r = await driver.pollFault(fault);
			trace(
				`fault ${fault}: ${r.error?.message ?? 'no error'} ${JSON.stringify((r.error as { failure?: unknown } | undefined)?.failure)}`,
			);
		} else if (roll < 0.92 && driver.saved)
			await driver.killDuringRead(2 + Math.floor(random() * 3));
		else await driver.poll();
	};
	const settle = async () => {
		// Time for an assignment read (Hours Between Open Reads), then quiet polls.
		driver.wait(openReadHours * HOUR + MINUTE);
		let quiet = 0;
		for (let i = 0; i < 40 && quiet < 3; i++) {
			driver.wait(MINUTE);
			const before = driver.delivered.length;
			const r = await driver.poll();
			quiet = r.delivered && driver.delivered.length === before ? quiet + 1 : 0;
		}
	};

	let missedSameDay = 0;
	let dayBeganAbandoned = false;
	if (quotaStory) {
		driver.wait(DAY);
		burst(200 + Math.floor(random() * 200));
		let doneAt: number | undefined;
		for (let p = 0; p < 14; p++) {
			driver.wait(MINUTE);
			const roll = random();
			let requests: number;
			// Under the durable scheduler the day's first poll may be abandoned: the read is not lost for the day.
			if (p === 0 && story === 'abandonedDay') {
				requests = (await driver.pollStalled(2, 46_000 + Math.floor(random() * 30_000))).requests;
				dayBeganAbandoned = true;
			} else if (roll < 0.15)
				requests = (await driver.pollTogether()).reduce((n, r) => Math.max(n, r.requests), 0);
			else if (roll < 0.25 && doneAt === undefined && driver.saved) {
				if (outstanding() > 0) driver.counts.restartsWithBacklog++;
				driver.restart();
				requests = (await driver.poll()).requests;
			} else requests = (await driver.poll()).requests;
			trace(`quota poll ${p}: ${requests} requests, outstanding ${outstanding()}`);
			if (doneAt !== undefined && p > doneAt + 1 && requests > 0) driver.counts.quotaBreaches++;
			if (doneAt === undefined && outstanding() === 0) {
				doneAt = p;
				for (let i = 0; i < 5; i++) smallWrite();
				control.advance(1000);
			}
		}
		missedSameDay = doneAt === undefined ? outstanding() : 0;
		driver.wait(DAY);
		await settle();
	} else {
		const steps = 6 + Math.floor(random() * 7);
		for (let step = 0; step < steps; step++) {
			const roll = random();
			if (roll < 0.25) burst();
			else if (roll < 0.35)
				for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) smallWrite();
			else if (roll < 0.42 && driver.saved) {
				if (outstanding() > 0) driver.counts.restartsWithBacklog++;
				driver.restart();
			} else await anyPoll();
			trace(
				`step ${step}: delivered ${driver.delivered.length}, outstanding ${outstanding()}, ${JSON.stringify(driver.counts)}`,
			);
		}
		await settle();
	}

	// Judge per key.
	const keys = keysOf();
	const seen = new Set<string>();
	const duplicates = keys.filter((key) => (seen.has(key) ? true : (seen.add(key), false)));
	const required = requiredNow();
	const missed = required.filter((key) => !seen.has(key));
	const allowed = new Set<string>(required);
	for (const s of store.data.sessions)
		if (s.score !== null && !scoredAtStart.has(s.id)) allowed.add(`s|${s.id}`);
	for (const change of control.assignmentLog().slice(logStart)) {
		const key = STATUS_KEY[change.to];
		if (key) allowed.add(`${key}|${change.id}`);
	}
	const unexpected = [...seen].filter(
		(key) => !allowed.has(key) || !events.includes(KEY_EVENT[key[0]] as never),
	);
	let outOfOrder = 0;
	const orderExamples: string[] = [];
	let newest = -Infinity;
	for (const key of keys) {
		const id = key.slice(2);
		if (key[0] !== 's' || !scoredAtBirth.has(id)) continue;
		const at = store.data.sessions.find((s) => s.id === id)!.createdAt;
		if (at < newest) {
			outOfOrder++;
			if (orderExamples.length < 3)
				orderExamples.push(
					`${id} created ${new Date(at).toISOString()} after one created ${new Date(newest).toISOString()} (item ${keys.indexOf(key)} of ${keys.length})`,
				);
		}
		newest = Math.max(newest, at);
	}
	const judged: Judged = {
		missed: missed.length,
		duplicates: duplicates.length,
		unexpected: unexpected.length,
		outOfOrder,
		missedSameDay: dayBeganAbandoned ? 0 : missedSameDay,
		missedSameDayAfterAbandon: dayBeganAbandoned ? missedSameDay : 0,
		emitted: keys.length,
		required: required.length,
	};
	const polls = driver.finish();
	const bad =
		judged.missed ||
		judged.duplicates ||
		judged.unexpected ||
		judged.outOfOrder ||
		judged.missedSameDay ||
		judged.missedSameDayAfterAbandon ||
		polls.sentAfterAbandon ||
		polls.secondPollActed ||
		polls.undeclared ||
		polls.unexpectedErrors ||
		polls.quotaBreaches;
	return {
		judged,
		polls,
		quotaStory,
		scheduler,
		failure: bad
			? `${context}: ${JSON.stringify({ ...judged, sentAfterAbandon: polls.sentAfterAbandon, secondPollActed: polls.secondPollActed, undeclared: polls.undeclared, unexpectedErrors: polls.unexpectedErrors, quotaBreaches: polls.quotaBreaches })} missed by kind ${JSON.stringify(byKind(missed))} ${JSON.stringify(missed.slice(0, 3))} duplicates ${JSON.stringify(duplicates.slice(0, 3))} unexpected ${JSON.stringify(unexpected.slice(0, 3))} out of order ${JSON.stringify(orderExamples)}`
			: undefined,
	};
}

function block(name: string, story: Story, sequences: number, failing: boolean): void {
	describe(name, () => {
		const judged = zeroJudged();
		const polls = zeroCounts();
		const bySchedule: Record<string, number> = {};
		const failed: string[] = [];
		let quotaStories = 0;
		const only = ONLY_STORY === undefined || ONLY_STORY === story ? ONLY : -1;
		const batches = Math.ceil(sequences / BATCH);
		for (let b = 0; b < batches; b++) {
			const first = b * BATCH;
			const last = Math.min(sequences, first + BATCH) - 1;
			if (only !== undefined && (only < first || only > last)) continue;
			(failing ? test.failing : test)(
				`sequences ${first}-${last}: 0 missed, 0 duplicate, 0 unexpected, 0 out of order; no request after an abandon; one read at a time`,
				async () => {
					const failures: string[] = [];
					for (let i = first; i <= last; i++) {
						if (only !== undefined && i !== only) continue;
						const r = await runSequence(i, story);
						addCounts(judged, r.judged);
						addCounts(polls, r.polls);
						bySchedule[r.scheduler] = (bySchedule[r.scheduler] ?? 0) + 1;
						if (r.quotaStory) quotaStories++;
						if (r.failure) failures.push(r.failure);
					}
					failed.push(...failures);
					expect(failures).toEqual([]);
				},
			);
		}
		afterAll(() => {
			process.stdout.write(
				`practiceBudgetOracle [${story}]: ${sequences} sequences ${JSON.stringify(bySchedule)}, ${quotaStories} with Max Reads a Day 1; ${JSON.stringify(judged)}; polls ${JSON.stringify(polls)}\n${failing ? failed.map((f) => `  ${f}\n`).join('') : ''}`,
			);
		});
	});
}

block(
	'Practice Results under the poll budget, against a slow service (issue 47)',
	'main',
	SEQUENCES,
	false,
);
block(
	'Practice Results Max Reads a Day 1 whose day begins with a poll the durable scheduler abandons',
	'abandonedDay',
	4,
	false,
);
// A known limit (docs/triggers.md: "a deadline in its finished part or look-up leaves the state as
// before"): at 12 s a request (2 requests a poll) the finished part and look-ups of a burst of finished
// assignments never complete. A failing test until they are resumable.
block(
	'Practice Results assignment reads longer than one poll (12 s a request): failing until resumable',
	'assignments',
	4,
	true,
);
