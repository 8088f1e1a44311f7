/**
 * The issue 47 stories shared by the families' budget oracles (knowledgeHubBudgetOracle,
 * practiceBudgetOracle, skillTiersBudgetOracle): how n8n runs the polls, never what the trigger does.
 * Each family's file keeps its own oracle (what must be emitted, judged per ID against the simulator's
 * own state and log); this file only drives the polls and counts what any poll must never do.
 *
 * The contract (issue 47, "Must have"), as these stories hold a trigger to it:
 * - under n8n's durable scheduler (N8N_SCHEDULER_POLL_TIMEOUT 45 s, getPollBudgetMs 36 s) a read stops
 *   before its budget; one not done keeps its progress in the static data and continues at the next
 *   poll (nothing missed, nothing twice, in order); a poll over 45 s is abandoned (result dropped,
 *   nothing committed) and its read sends no request after that;
 * - one read at a time: a poll that begins while the same trigger's read is in flight in this process
 *   sends nothing, emits nothing, fails nothing;
 * - a failure is declared on the error's `failure` (429 for the minute → rate-limited with
 *   retryAfterMs; the day's limit → quota-exhausted with resetsAtEpochMs; 401 → credential-invalid;
 *   5xx and timeouts → temporarily-unavailable).
 *
 * Time is virtual (slowService.ts): each request the trigger sends takes the sequence's latency on
 * Date.now and on the simulator's clock; the transport's sleeps move both clocks too (each file mocks
 * n8n-workflow's sleep with `virtualSleep`). Nothing here waits on the wall clock.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { PollHarness, PollHarnessOptions, Persistence } from '../../n8n-harness/pollHarness';
import type { IncomingMessage } from 'node:http';

import { mulberry32 } from '../../simulator/state/random';
import { advanceVirtualTime } from './slowService';
import { startRig, type TriggerRig } from './setup';

export const SECOND = 1000;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** n8n 2.41's N8N_SCHEDULER_POLL_TIMEOUT default; its getPollBudgetMs is then 36 s. */
export const POLL_TIMEOUT_MS = 45_000;
export const DURABLE_BUDGET_MS = 36_000;

/**
 * How n8n runs the trigger:
 * - 'durable': n8n 2.41's durable scheduler with durable cursors (staged static data, 45 s timeout,
 *   36 s budget; a poll over the timeout is abandoned);
 * - 'cut-emit-only': static data saved only when a poll emits (n8n 1.x, 2.x before the cursor is
 *   migrated), with a 36 s budget and no abandonment: a cut read that emitted nothing keeps its
 *   progress in memory only;
 * - 'legacy-staged' / 'legacy-emit-only': the legacy poller (budget five minutes), where a poll may begin
 *   while the previous read still runs.
 */
export type Scheduler = 'durable' | 'cut-emit-only' | 'legacy-staged' | 'legacy-emit-only';
export const SCHEDULERS: readonly Scheduler[] = [
	'durable',
	'cut-emit-only',
	'legacy-staged',
	'legacy-emit-only',
];

export function harnessOptions(
	scheduler: Scheduler,
): Omit<PollHarnessOptions, 'parameters' | 'credentials' | 'workflow'> {
	const persistence: Persistence =
		scheduler === 'durable' || scheduler === 'legacy-staged' ? 'staged' : 'emit-only';
	if (scheduler === 'durable') return { persistence, pollTimeoutMs: POLL_TIMEOUT_MS };
	if (scheduler === 'cut-emit-only') return { persistence, pollBudgetMs: DURABLE_BUDGET_MS };
	return { persistence };
}

/**
 * Starts the sequence's virtual time: each request takes `latencyMs` (slowService.ts), and Date.now is
 * the simulator's clock itself, so the instants the trigger takes from Date.now (a read pinned to an
 * instant, the quota, the poll's deadline) are the service's, and no wall-clock time leaks in between
 * two requests. rig.reset() hands Date.now back.
 */
export function startVirtualTime(rig: TriggerRig, latencyMs: number): void {
	rig.slow.start(latencyMs);
	jest.spyOn(Date, 'now').mockImplementation(() => rig.clock.now());
}

/** A declared failure as n8n-workflow 2.41 reads it (`error.failure`, plain data). */
interface Failure {
	cause?: string;
	retryAfterMs?: number;
	resetsAtEpochMs?: number;
}
export type Fault = 'minute' | 'day' | 'credential' | 'unavailable';
const CAUSE: Record<Fault, string> = {
	minute: 'rate-limited',
	day: 'quota-exhausted',
	credential: 'credential-invalid',
	unavailable: 'temporarily-unavailable',
};

/** What went wrong in the polls themselves (each family adds missed / duplicate / order / unexpected). */
export interface PollCounts {
	polls: number;
	/** Of them, cut-off or not: polls of a sequence whose latency makes one read longer than a budget. */
	abandoned: number;
	/** Requests a poll sent after n8n abandoned it (must be 0). */
	sentAfterAbandon: number;
	/** A poll begun while the read was in flight (started together, or during a read): emitted, failed or sent. */
	secondPollActed: number;
	together: number;
	overlapping: number;
	/** Requests received while a poll begun during the read ran (see pollOverlapping). */
	sentDuringSecondPoll: number;
	restarts: number;
	/** Restarts with a backlog not yet delivered (between two polls of a continued read, mostly). */
	restartsWithBacklog: number;
	/** Restarts by a process that died during a read (killDuringRead). */
	restartsMidRead: number;
	killedMidRead: number;
	midReadWrites: number;
	faults: number;
	/** A failed poll whose error declared the expected failure (the fault stories did reach an error). */
	declared: number;
	/** A failed poll whose error did not declare the expected failure. */
	undeclared: number;
	/** A poll that failed though no fault was injected. */
	unexpectedErrors: number;
	/** A poll the quota leaves no read sent a request (Max Reads a Day stories). */
	quotaBreaches: number;
	/** The largest static data stored, in characters of JSON (a figure: one read's worth is not defined here). */
	maxStoredChars: number;
}
export const zeroCounts = (): PollCounts => ({
	polls: 0,
	abandoned: 0,
	sentAfterAbandon: 0,
	secondPollActed: 0,
	together: 0,
	overlapping: 0,
	sentDuringSecondPoll: 0,
	restarts: 0,
	restartsWithBacklog: 0,
	restartsMidRead: 0,
	killedMidRead: 0,
	midReadWrites: 0,
	faults: 0,
	declared: 0,
	undeclared: 0,
	unexpectedErrors: 0,
	quotaBreaches: 0,
	maxStoredChars: 0,
});
export function addCounts<T extends object>(into: T, from: T): void {
	for (const [k, v] of Object.entries(from))
		if (typeof v === 'number')
			(into as Record<string, number>)[k] = k.startsWith('max')
				? Math.max((into as Record<string, number>)[k], v)
				: (into as Record<string, number>)[k] + v;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;

/** The harness keeps what the server stored privately; a restart hands it to the next process. */
function setPersisted(harness: PollHarness, data: IDataObject): void {
	(harness as unknown as { persisted: IDataObject }).persisted = clone(data);
}

/** Runs before the n-th request of a poll (its virtual time already taken), with the request. */
export type RequestHook = (n: number, req: IncomingMessage) => void;

export interface PollResult {
	items: INodeExecutionData[];
	/** What reached n8n: false when abandoned, failed, or killed with the process. */
	delivered: boolean;
	requests: number;
	abandoned: boolean;
	error?: Error;
}

/**
 * One trigger over a sequence's polls, as n8n runs it: `poll` (with, optionally, a hook before each
 * request: writes between two pages of a read, a stalled request), `pollTogether`, `pollOverlapping`
 * (a second poll begins during the read), `restart` (a new process: empty memory, the static data as
 * last stored), `killDuringRead` (the process dies during a read: nothing of it reaches n8n).
 */
export class PollDriver {
	harness: PollHarness;
	private processes = 0;
	readonly counts = zeroCounts();
	/** Every item that reached n8n, in order. */
	readonly delivered: INodeExecutionData[] = [];

	constructor(
		readonly rig: TriggerRig,
		private parameters: INodeParameters,
		readonly scheduler: Scheduler,
		private readonly workflowId: string,
	) {
		this.harness = this.newHarness();
	}

	private newHarness(): PollHarness {
		// A new workflow ID per process: whatever the node keeps in memory is not found by the next one.
		return this.rig.harness(this.parameters, {
			...harnessOptions(this.scheduler),
			workflow: { id: `${this.workflowId}-p${this.processes++}` },
		});
	}

	get persistence(): Persistence {
		return harnessOptions(this.scheduler).persistence ?? 'staged';
	}

	/** The node's static data as the next poll finds it (under emit-only, what n8n holds in memory). */
	get live(): IDataObject {
		return this.persistence === 'emit-only'
			? this.harness.workflow.getStaticData('node', this.harness.node)
			: this.harness.stored;
	}

	/**
	 * Whether the server has stored anything for the node. Under emit-only, n8n keeps a starting point
	 * that no poll emitted with in memory only: a restart before then starts over from "now" (a new
	 * activation, nothing from before it sent), so the stories restart only once something is stored.
	 */
	get saved(): boolean {
		return Object.keys(this.harness.stored).length > 0;
	}

	setParameters(parameters: INodeParameters): void {
		this.parameters = parameters;
		this.harness.setParameters(parameters);
	}

	/** n8n restarts: a new process, its memory empty, the static data as the server last stored it. */
	restart(midRead = false): void {
		this.counts.restarts++;
		if (midRead) this.counts.restartsMidRead++;
		const stored = this.harness.stored;
		this.collectAbandonCount();
		this.harness = this.newHarness();
		setPersisted(this.harness, stored);
		this.harness.restart();
	}

	private collectAbandonCount(): void {
		this.counts.sentAfterAbandon += this.harness.sentAfterAbandon;
		this.harness.sentAfterAbandon = 0;
	}

	/** Call at the end of a sequence: the counts of the harness in use. */
	finish(): PollCounts {
		this.collectAbandonCount();
		return this.counts;
	}

	private record(
		outcome: { items: INodeExecutionData[]; error?: Error; abandoned?: boolean },
		requests: number,
		fault?: Fault,
	): PollResult {
		this.counts.polls++;
		const abandoned = outcome.abandoned === true;
		if (abandoned) this.counts.abandoned++;
		if (outcome.error) {
			if (fault === undefined) this.counts.unexpectedErrors++;
			else {
				const failure = (outcome.error as Error & { failure?: Failure }).failure;
				const ok =
					failure?.cause === CAUSE[fault] &&
					(fault !== 'minute' || (failure.retryAfterMs ?? 0) > 0) &&
					(fault !== 'day' || (failure.resetsAtEpochMs ?? 0) > Date.now() - MINUTE);
				if (ok) this.counts.declared++;
				else this.counts.undeclared++;
			}
		}
		const delivered = !abandoned && !outcome.error;
		if (delivered) this.delivered.push(...outcome.items);
		this.counts.maxStoredChars = Math.max(
			this.counts.maxStoredChars,
			JSON.stringify(this.harness.stored).length,
		);
		if (process.env.BUDGET_TRACE)
			process.stdout.write(
				`poll at ${new Date(Date.now()).toISOString()}: ${requests} requests, ${outcome.items.length} items${abandoned ? ', abandoned' : ''}${outcome.error ? `, error ${outcome.error.message}` : ''}; stored ${JSON.stringify(this.harness.stored).slice(0, 400)}\n`,
			);
		return {
			items: delivered ? outcome.items : [],
			delivered,
			requests,
			abandoned,
			error: outcome.error,
		};
	}

	/** One poll; `beforeRequest(n)` runs before the n-th request it sends (virtual time already moved). */
	async poll(beforeRequest?: RequestHook, fault?: Fault): Promise<PollResult> {
		const sentBefore = this.rig.slow.sent;
		this.rig.proxy.onRequest(beforeRequest);
		try {
			const outcome = await this.harness.poll();
			return this.record(outcome, this.rig.slow.sent - sentBefore, fault);
		} finally {
			this.rig.proxy.onRequest(undefined);
		}
	}

	/** A poll whose n-th request stalls for `stallMs` more (the service hangs on it). */
	async pollStalled(n: number, stallMs: number): Promise<PollResult> {
		return await this.poll((k) => {
			if (k === n) advanceVirtualTime(stallMs);
		});
	}

	/** A poll meeting a fault of the service from its first request on (never an injected one left over). */
	async pollFault(fault: Fault): Promise<PollResult> {
		this.counts.faults++;
		const { sim } = this.rig;
		const control = sim.control;
		if (fault === 'minute' || fault === 'day') {
			control.setRateLimits(
				fault === 'minute'
					? { perMinute: 1, perDay: 1_000_000 }
					: { perMinute: 1_000_000, perDay: 1 },
			);
			// Another workflow of the workspace used up the window (straight to the simulator: no virtual time).
			await fetch(`${sim.baseUrl}/workspace`, {
				headers: { authorization: `Bearer ${sim.apiKey}` },
			});
		}
		try {
			return await this.poll((_n, req) => {
				// Each request meets its own fault, so none is left for the next poll.
				if (fault === 'unavailable') control.failNext(1, 503);
				if (fault === 'credential') req.headers.authorization = 'Bearer revoked-key';
			}, fault);
		} finally {
			control.setRateLimits(null);
		}
	}

	/** Two polls started together (two ticks at once): one read; the other sends, emits and fails nothing. */
	async pollTogether(): Promise<PollResult[]> {
		this.counts.together++;
		const sentBefore = this.rig.slow.sent;
		const outcomes = await this.harness.pollTogether(2);
		const requests = this.rig.slow.sent - sentBefore;
		const results = outcomes.map((o) => this.record(o, requests));
		// At most one of them read: the other returned nothing and failed nothing.
		const acted = outcomes.filter((o) => o.items.length > 0 || o.error !== undefined);
		if (acted.length > 1) this.counts.secondPollActed++;
		return results;
	}

	/**
	 * A poll that begins while this trigger's read is in flight (the legacy poller's next Poll Times
	 * instant during a long read): started before the read's n-th request; it must send nothing, emit
	 * nothing and fail nothing (its requests are counted as the ones sent between its start and end).
	 */
	async pollOverlapping(n: number, beforeRequest?: RequestHook): Promise<PollResult> {
		this.counts.overlapping++;
		let second: Promise<void> | undefined;
		const first = this.poll((k, req) => {
			beforeRequest?.(k, req);
			if (k !== n) return;
			const sentAtStart = this.rig.slow.sent;
			second = this.harness.poll().then((o) => {
				// Requests the proxy received while the second poll ran (the first read waits on its own
				// request meanwhile): a figure, not judged (a sleep in either poll may let the first one send).
				this.counts.sentDuringSecondPoll += this.rig.slow.sent - sentAtStart;
				this.counts.polls++;
				// The first read may send meanwhile; a second read would send its own first request too and
				// emit or fail. Its items are judged with the rest (a duplicate shows there).
				if (o.items.length || o.error || o.abandoned) this.counts.secondPollActed++;
				if (!o.abandoned && !o.error) this.delivered.push(...o.items);
			});
		});
		const result = await first;
		await second;
		return result;
	}

	/**
	 * The process dies before the read's n-th request: nothing of the poll reaches n8n (no items, nothing
	 * stored), and n8n starts again with what it had stored before the poll.
	 */
	async killDuringRead(n: number): Promise<void> {
		this.counts.killedMidRead++;
		const before = this.harness.stored;
		const harness = this.harness;
		let killed = false;
		const sentBefore = this.rig.slow.sent;
		this.rig.proxy.onRequest((k) => {
			if (k === n) killed = true;
		});
		let outcome;
		try {
			outcome = await harness.poll();
		} finally {
			this.rig.proxy.onRequest(undefined);
		}
		if (!killed) {
			// The read was shorter than n requests: it finished before the process died.
			this.record(outcome, this.rig.slow.sent - sentBefore);
			this.restart();
			return;
		}
		this.counts.polls++;
		setPersisted(harness, before);
		this.restart(true);
	}

	/** Virtual time passes between two polls (both clocks). */
	wait(ms: number): void {
		advanceVirtualTime(ms);
	}
}

/*
 * The story runner the three budget oracles share: the rig, the mix of polls, the main and the Max Reads
 * a Day 1 stories, the quiet end, the verdict and the test blocks. Each family gives its writes, its
 * keys and its judging; the random draws are taken in the same order as when each file had its own copy,
 * so a seed replays the same sequence.
 */

/** The rig of a budget oracle file, started once; Date.now and the latency handed back at the end. */
export function budgetRig(onStart?: (rig: TriggerRig) => void): () => TriggerRig {
	let rig: TriggerRig | undefined;
	beforeAll(async () => {
		rig = await startRig();
		onStart?.(rig);
	});
	afterAll(async () => {
		rig?.slow.stop();
		await rig?.close();
	});
	return () => {
		if (!rig) throw new Error('the budget rig starts in beforeAll');
		return rig;
	};
}

/** A sequence's random draws (mulberry32 from its seed), and a trace printed when one sequence replays. */
export interface Draws {
	random: () => number;
	pick<T>(items: readonly T[]): T;
	chance(p: number): boolean;
	trace(line: string): void;
}
export function draws(seed: number, traced: boolean): Draws {
	const random = mulberry32(seed);
	return {
		random,
		pick: <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)],
		chance: (p: number) => random() < p,
		trace: (line: string) => {
			if (traced) process.stdout.write(`${line}\n`);
		},
	};
}

/** Keys counted by their first letter (the event). */
export const byKind = (keys: string[]): Record<string, number> =>
	keys.reduce<Record<string, number>>((n, key) => ({ ...n, [key[0]]: (n[key[0]] ?? 0) + 1 }), {});

/** The delivered keys as a set, and those delivered a second time (in order). */
export function duplicatesOf(keys: string[]): { seen: Set<string>; duplicates: string[] } {
	const seen = new Set<string>();
	const duplicates = keys.filter((key) => (seen.has(key) ? true : (seen.add(key), false)));
	return { seen, duplicates };
}

/** One sequence's outcome: what the family judged, the poll counts, and what went wrong if anything. */
export interface StoryResult<Judged> {
	judged: Judged;
	polls: PollCounts;
	failure?: string;
	quotaStory: boolean;
	scheduler: Scheduler;
}

/** The activation emitted or failed: the sequence stops there, failed. */
export async function activate<Judged>(
	driver: PollDriver,
	context: string,
	zero: Judged,
	quotaStory: boolean,
): Promise<StoryResult<Judged> | undefined> {
	const activation = await driver.poll();
	if (activation.delivered && !activation.items.length) return undefined;
	return {
		judged: zero,
		polls: driver.finish(),
		quotaStory,
		scheduler: driver.scheduler,
		failure: `${context}: the activation failed or emitted (${activation.error?.message ?? `${activation.items.length} items`})`,
	};
}

/**
 * The sequence's result: failed when a judged count in `mustBeZero` or a poll rule (no request after
 * an abandon, a second poll acting, an undeclared or unexpected failure, a quota breach) is not 0.
 */
export function verdict<Judged extends object>(
	driver: PollDriver,
	context: string,
	judged: Judged,
	mustBeZero: ReadonlyArray<keyof Judged>,
	quotaStory: boolean,
	details: () => string,
): StoryResult<Judged> {
	const polls = driver.finish();
	const rules = {
		sentAfterAbandon: polls.sentAfterAbandon,
		secondPollActed: polls.secondPollActed,
		undeclared: polls.undeclared,
		unexpectedErrors: polls.unexpectedErrors,
		quotaBreaches: polls.quotaBreaches,
	};
	const bad =
		mustBeZero.some((key) => judged[key] !== 0) || Object.values(rules).some((n) => n !== 0);
	return {
		judged,
		polls,
		quotaStory,
		scheduler: driver.scheduler,
		failure: bad
			? `${context}: ${JSON.stringify({ ...judged, ...rules })} ${details()}`
			: undefined,
	};
}

/** How a family's mix of polls is drawn (the thresholds of `roll`, as each oracle had them). */
export interface PollMix {
	/** Between two polls. */
	intervalMs: number;
	/** Writes before the n-th request, n drawn from `firstWrite` on (4 values). */
	writesAt(n: number): RequestHook;
	firstWrite: number;
	/** roll below: a stalled poll (durable only), a fault, a kill during the read (`killSpread` values from 2). */
	stalledBelow: number;
	faultBelow: number;
	killBelow: number;
	killSpread: number;
	/** Skill Tiers: roll below, a restart (`beforeRestart` first) and a poll. */
	restartBelow?: number;
	beforeRestart?(): void;
}

/** One poll of the mix, after the interval: plain (maybe with writes), together, overlapping, stalled, faulted, killed. */
export async function anyPoll(driver: PollDriver, d: Draws, mix: PollMix): Promise<void> {
	const { random, chance, pick } = d;
	driver.wait(mix.intervalMs);
	const roll = random();
	if (roll < 0.4)
		await driver.poll(
			chance(0.4) ? mix.writesAt(mix.firstWrite + Math.floor(random() * 4)) : undefined,
		);
	else if (roll < 0.52) await driver.pollTogether();
	else if (roll < 0.64) await driver.pollOverlapping(2 + Math.floor(random() * 2));
	else if (roll < mix.stalledBelow && driver.scheduler === 'durable')
		await driver.pollStalled(1 + Math.floor(random() * 3), 46_000 + Math.floor(random() * 30_000));
	else if (roll < mix.faultBelow) {
		const fault: Fault = pick(['minute', 'day', 'credential', 'unavailable']);
		const r = await driver.pollFault(fault);
		d.trace(
			`fault ${fault}: ${r.error?.message ?? 'no error'} ${JSON.stringify((r.error as { failure?: unknown } | undefined)?.failure)}`,
		);
	} else if (roll < mix.killBelow && driver.saved)
		await driver.killDuringRead(2 + Math.floor(random() * mix.killSpread));
	else if (mix.restartBelow !== undefined && roll < mix.restartBelow && driver.saved) {
		mix.beforeRestart?.();
		driver.restart();
		await driver.poll();
	} else await driver.poll();
}

/**
 * Quiet polls a minute apart (after `leadMs`) until `quietPolls` in a row deliver nothing (40 at most).
 * With `busy`, a poll after which it is true (a read going on over polls that emit nothing, as at 12 s a
 * request) is not quiet.
 */
export async function settle(
	driver: PollDriver,
	quietPolls: number,
	leadMs = 0,
	busy?: () => boolean,
): Promise<void> {
	if (leadMs) driver.wait(leadMs);
	let quiet = 0;
	for (let i = 0; i < 40 && quiet < quietPolls; i++) {
		driver.wait(MINUTE);
		const before = driver.delivered.length;
		const r = await driver.poll();
		quiet = r.delivered && driver.delivered.length === before && !busy?.() ? quiet + 1 : 0;
	}
}

/** What a family's list stories (Knowledge Hub, Practice Results) write and count. */
export interface ListWorld {
	/** A backlog: more list pages than one read of the budget gets through. */
	burst(): void;
	/** A change between two polls or between two pages of a read. */
	smallWrite(): void;
	/** Keys required now not yet delivered. */
	outstanding(): number;
	settle(): Promise<void>;
	mix: PollMix;
}

/** The main story: 6 to 12 steps of bursts, small writes, restarts and polls of the mix, then quiet. */
export async function mainStory(driver: PollDriver, d: Draws, world: ListWorld): Promise<void> {
	const { random } = d;
	const steps = 6 + Math.floor(random() * 7);
	for (let step = 0; step < steps; step++) {
		const roll = random();
		if (roll < 0.25) world.burst();
		else if (roll < 0.35)
			for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) world.smallWrite();
		else if (roll < 0.42 && driver.saved) {
			if (world.outstanding() > 0) driver.counts.restartsWithBacklog++;
			driver.restart();
		} else await anyPoll(driver, d, world.mix);
		d.trace(
			`step ${step}: delivered ${driver.delivered.length}, outstanding ${world.outstanding()}, ${JSON.stringify(driver.counts)}`,
		);
	}
	await world.settle();
}

/**
 * Max Reads a Day 1: the activation spent the day's read; a day later a backlog (`dayBurst`) is read
 * over up to 14 polls a minute apart (the first abandoned by the durable scheduler when `abandonFirst`),
 * and once it is done no poll sends a request; then a day passes and the trigger settles. Returns the
 * keys not delivered the day the read began.
 */
export async function quotaStory(
	driver: PollDriver,
	d: Draws,
	world: ListWorld,
	dayBurst: () => void,
	abandonFirst: boolean,
): Promise<number> {
	const { random } = d;
	driver.wait(DAY);
	dayBurst();
	let doneAt: number | undefined;
	for (let p = 0; p < 14; p++) {
		driver.wait(MINUTE);
		const roll = random();
		let requests: number;
		// Under the durable scheduler the day's first poll may be abandoned: the read is not lost for the day.
		if (p === 0 && abandonFirst)
			requests = (await driver.pollStalled(2, 46_000 + Math.floor(random() * 30_000))).requests;
		else if (roll < 0.15)
			requests = (await driver.pollTogether()).reduce((n, r) => Math.max(n, r.requests), 0);
		else if (roll < 0.25 && doneAt === undefined && driver.saved) {
			if (world.outstanding() > 0) driver.counts.restartsWithBacklog++;
			driver.restart();
			requests = (await driver.poll()).requests;
		} else requests = (await driver.poll()).requests;
		d.trace(`quota poll ${p}: ${requests} requests, outstanding ${world.outstanding()}`);
		if (doneAt !== undefined && p > doneAt + 1 && requests > 0) driver.counts.quotaBreaches++;
		if (doneAt === undefined && world.outstanding() === 0) {
			doneAt = p;
			// Changes after the day's read: not read before the quota refills.
			for (let i = 0; i < 5; i++) world.smallWrite();
			driver.rig.sim.control.advance(1000);
		}
	}
	const missedSameDay = doneAt === undefined ? world.outstanding() : 0;
	driver.wait(DAY);
	await world.settle();
	return missedSameDay;
}

/** Which sequences to run: all, or one replayed (`only`, traced). */
export interface StoryBlock<Judged> {
	/** The oracle's name and the block's story, for the figures printed at the end. */
	label: string;
	sequences: number;
	/** Sequences per test (each test runs them in turn). */
	batch: number;
	only?: number;
	/** What each test claims. */
	claim: string;
	/** A known limit: the block is `test.failing` until it is fixed. */
	failing?: boolean;
	zero(): Judged;
	run(index: number): Promise<StoryResult<Judged>>;
}

const STORY_TIMEOUT_MS = 20 * MINUTE;

/** A describe block of a budget oracle: its sequences in batches, the figures printed at the end. */
export function storyBlock<Judged extends object>(name: string, block: StoryBlock<Judged>): void {
	describe(name, () => {
		const judged = block.zero();
		const polls = zeroCounts();
		const bySchedule: Record<string, number> = {};
		const failed: string[] = [];
		let quotaStories = 0;
		const { only, sequences, batch } = block;
		for (let first = 0; first < sequences; first += batch) {
			const last = Math.min(sequences, first + batch) - 1;
			if (only !== undefined && (only < first || only > last)) continue;
			(block.failing ? test.failing : test)(
				`sequences ${first}-${last}: ${block.claim}`,
				async () => {
					const failures: string[] = [];
					for (let i = first; i <= last; i++) {
						if (only !== undefined && i !== only) continue;
						const r = await block.run(i);
						addCounts(judged, r.judged);
						addCounts(polls, r.polls);
						bySchedule[r.scheduler] = (bySchedule[r.scheduler] ?? 0) + 1;
						if (r.quotaStory) quotaStories++;
						if (r.failure) failures.push(r.failure);
					}
					failed.push(...failures);
					expect(failures).toEqual([]);
				},
				// Virtual time: the limit only stops a hang. A loaded 2-core machine runs a batch many
				// times slower than the default 30 s allows, and a batch left running past its timeout
				// would write into the next one's rig.
				STORY_TIMEOUT_MS,
			);
		}
		afterAll(() => {
			process.stdout.write(
				`${block.label}: ${sequences} sequences ${JSON.stringify(bySchedule)}, ${quotaStories} with Max Reads a Day 1; ${JSON.stringify(judged)}; polls ${JSON.stringify(polls)}\n${failed.map((f) => `  ${f}\n`).join('')}`,
			);
		});
	});
}
