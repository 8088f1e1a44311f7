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
 * assignment reads whose finished part and look-ups take more than a poll at 12 s a request (each poll
 * moves them on a page; a `test.failing` until issue 56 made them resumable: 223 of 3,131 outcomes
 * never delivered).
 *
 * PRACTICE_BUDGET_SEQUENCES (default 12; 40 with WSP_DEEP=1), PRACTICE_BUDGET_ONLY=<index> with PRACTICE_BUDGET_STORY=<block>
 * (one, traced) and BUDGET_TRACE=1 (every poll) replay.
 */
import { PRACTICE_EVENTS, practiceEventsOf } from './practiceSetup';
import type { AssignmentChange } from '../../simulator/state/types';
import {
	DAY,
	HOUR,
	MINUTE,
	SCHEDULERS,
	PollDriver,
	activate,
	budgetRig,
	byKind,
	draws,
	duplicatesOf,
	mainStory,
	quotaStory as quotaDay,
	settle,
	startVirtualTime,
	storyBlock,
	verdict,
	type ListWorld,
	type RequestHook,
	type Scheduler,
	type StoryResult,
} from './budgetStories';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

const SEQUENCES = Number(
	process.env.PRACTICE_BUDGET_SEQUENCES ?? (process.env.WSP_DEEP === '1' ? 40 : 12),
);
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

const rigOf = budgetRig();

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

type Result = StoryResult<Judged>;

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
	const d = draws(seed, ONLY !== undefined);
	const { random, pick, chance } = d;
	const rig = rigOf();
	const control = rig.sim.control;
	const { store } = control;

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
	const failedActivation = await activate(driver, context, zeroJudged(), quotaStory);
	if (failedActivation) return failedActivation;

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
	const world: ListWorld = {
		burst: () => burst(),
		smallWrite,
		outstanding,
		// Time for an assignment read (Hours Between Open Reads), then quiet polls.
		// Quiet: nothing delivered and no read going on (at 12 s a request a read spans polls).
		settle: async () =>
			await settle(driver, 3, openReadHours * HOUR + MINUTE, () => driver.live.continues === true),
		mix: {
			intervalMs: MINUTE,
			writesAt,
			firstWrite: 1,
			stalledBelow: 0.76,
			faultBelow: 0.84,
			killBelow: 0.92,
			killSpread: 3,
		},
	};

	let missedSameDay = 0;
	let dayBeganAbandoned = false;
	if (quotaStory) {
		dayBeganAbandoned = story === 'abandonedDay';
		missedSameDay = await quotaDay(
			driver,
			d,
			world,
			() => burst(200 + Math.floor(random() * 200)),
			dayBeganAbandoned,
		);
	} else await mainStory(driver, d, world);

	// Judge per key.
	const keys = keysOf();
	const { seen, duplicates } = duplicatesOf(keys);
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
	return verdict(
		driver,
		context,
		judged,
		[
			'missed',
			'duplicates',
			'unexpected',
			'outOfOrder',
			'missedSameDay',
			'missedSameDayAfterAbandon',
		],
		quotaStory,
		() =>
			`missed by kind ${JSON.stringify(byKind(missed))} ${JSON.stringify(missed.slice(0, 3))} duplicates ${JSON.stringify(duplicates.slice(0, 3))} unexpected ${JSON.stringify(unexpected.slice(0, 3))} out of order ${JSON.stringify(orderExamples)}`,
	);
}

function block(name: string, story: Story, sequences: number, failing: boolean): void {
	storyBlock(name, {
		label: `practiceBudgetOracle [${story}]`,
		sequences,
		batch: BATCH,
		only: ONLY_STORY === undefined || ONLY_STORY === story ? ONLY : -1,
		claim:
			'0 missed, 0 duplicate, 0 unexpected, 0 out of order; no request after an abandon; one read at a time',
		failing,
		zero: zeroJudged,
		run: async (index) => await runSequence(index, story),
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
// At 12 s a request (2 requests a poll) the finished part and look-ups of a burst of finished
// assignments take several polls: each moves them on a page (issue 56; before, they never completed).
block(
	'Practice Results assignment reads longer than one poll (12 s a request), a page a poll',
	'assignments',
	4,
	false,
);
