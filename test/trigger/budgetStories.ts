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

import { advanceVirtualTime } from './slowService';
import type { TriggerRig } from './setup';

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
		private readonly rig: TriggerRig,
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
