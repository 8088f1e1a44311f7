/** Simulation core: store + clock + timings + faults + callbacks, and the tick that moves time-driven state. */
import { CallbackDispatcher, type CallbackDelivery } from './callbacks';
import { iso, type Clock } from './clock';
import { Faults, type RateLimits } from './faults';
import { advanceJob, isTerminal } from './state/jobs';
import { renderJob } from './state/render';
import { advanceSource, type SourceTimings } from './state/sources';
import { Store, type TerminalStatus, type TimestampPrecision } from './state/store';
import type { DataSize } from './state/seed';
import type { JobRec, JobTimings } from './state/types';

export interface RecordedRequest {
	method: string;
	/** Path without the /rest/v1 prefix and without the query string. */
	path: string;
	query: Record<string, string>;
	body: unknown;
	/** Lower-cased header names. */
	headers: Record<string, string>;
	/** Status answered (or that would have been answered, for a dropped connection). */
	status: number;
	/** True when the connection was destroyed instead of answering. */
	dropped: boolean;
	/** Simulator clock time, ISO. */
	at: string;
}

export interface EngineConfig {
	clock: Clock;
	seed: number;
	dataSize: DataSize;
	jobTimings: JobTimings;
	sourceTimings?: SourceTimings;
	rateLimits: Partial<RateLimits> | boolean | null;
	latencyMs: number;
	/** Default 'second', as the deployed service. */
	timestampPrecision?: TimestampPrecision;
	/** Terminal statuses that send the callback; default ['completed'], as the spec's state table. */
	callbackStatuses?: readonly TerminalStatus[];
}

export class Engine {
	readonly store: Store;
	readonly faults = new Faults();
	readonly callbacks = new CallbackDispatcher();
	readonly requests: RecordedRequest[] = [];
	jobTimings!: JobTimings;
	sourceTimings!: SourceTimings;
	private explicitSourceTimings: boolean;

	constructor(private readonly config: EngineConfig) {
		this.store = new Store(config.seed, config.dataSize);
		if (config.timestampPrecision) this.store.precision = config.timestampPrecision;
		if (config.callbackStatuses) this.store.callbackStatuses = config.callbackStatuses;
		this.explicitSourceTimings = config.sourceTimings !== undefined;
		this.applyConfig();
	}

	get clock(): Clock {
		return this.config.clock;
	}

	now(): number {
		return this.config.clock.now();
	}

	private applyConfig(): void {
		this.setJobTimings(this.config.jobTimings);
		if (this.config.sourceTimings) this.sourceTimings = { ...this.config.sourceTimings };
		this.faults.reset();
		this.faults.setRateLimits(this.config.rateLimits);
		this.faults.latencyMs = this.config.latencyMs;
	}

	/** New jobs use these timings; sources follow them unless sourceTimings were given. */
	setJobTimings(t: JobTimings): void {
		this.jobTimings = { queuedMs: t.queuedMs, processingMs: t.processingMs, hold: t.hold ?? false };
		if (!this.explicitSourceTimings)
			this.sourceTimings = {
				pendingMs: t.queuedMs,
				processingMs: t.processingMs,
				hold: t.hold ?? false,
			};
	}

	setSourceTimings(t: SourceTimings): void {
		this.explicitSourceTimings = true;
		this.sourceTimings = { ...t };
	}

	/** Moves every job and source to where the clock says it should be; fires callbacks for jobs that ended. */
	tick(): void {
		const now = this.now();
		for (const job of this.store.jobs.values()) {
			if (advanceJob(this.store, job, now)) this.sendCallback(job);
		}
		for (const src of this.store.data.sources) if (src.extraction) advanceSource(src, now);
	}

	/** True while something is scheduled to move on its own (drives the real-clock timer). */
	hasPendingWork(): boolean {
		for (const job of this.store.jobs.values())
			if (!isTerminal(job) && !job.timings.hold) return true;
		return this.store.data.sources.some((s) => s.extraction && !s.extraction.hold);
	}

	/**
	 * Called whenever a job reaches a terminal state. Only the statuses in `callbackStatuses` call back
	 * (default completed only: the spec's state table promises no callback for failed or cancelled).
	 */
	sendCallback(job: JobRec): Promise<CallbackDelivery> | undefined {
		if (
			!job.callbackUrl ||
			!(this.store.callbackStatuses as readonly string[]).includes(job.status)
		)
			return undefined;
		return this.callbacks.deliver(
			job.id,
			job.callbackUrl,
			job.callbackHeaders,
			renderJob(this.store, job),
			iso(this.now()),
		);
	}

	reset(): void {
		this.store.reset();
		this.requests.length = 0;
		this.callbacks.clear();
		this.explicitSourceTimings = this.config.sourceTimings !== undefined;
		this.applyConfig();
	}
}
