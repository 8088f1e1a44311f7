/** Switchable limits and faults: rate limits, latency, failing and dropped responses. */
import { ApiError } from './http';

export interface RateLimits {
	perMinute: number;
	/** Scenario creations (POST /scenario-studio/jobs and POST /scenario-studio) a minute. */
	createsPerMinute: number;
	perDay: number;
	/**
	 * Whether a request answered 429 because a minute window was full still counts against the day,
	 * as users report of the deployed service (default true). false: the older, kinder simulator, where
	 * a 429 cost nothing. A 429 never counts in a minute window (a client retrying at `retry_after`
	 * would otherwise never get in), and one for a full day is not counted again.
	 */
	countRejected: boolean;
}

/** The deployed service's limits. */
export const DEPLOYED_RATE_LIMITS: RateLimits = {
	perMinute: 60,
	createsPerMinute: 10,
	perDay: 1000,
	countRejected: true,
};

/** Requests in the current windows, as the rate limits count them. */
export interface RateLimitUsage {
	/** Requests served in the last minute. */
	minute: number;
	/** Scenario creations served in the last minute. */
	createsMinute: number;
	/** Requests counted against the day: served, plus those refused for a full minute when counted. */
	day: number;
	/** Of `day`, the ones answered 429. */
	dayRejected: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

export class Faults {
	latencyMs = 0;
	rateLimits: RateLimits | null = null;
	private failQueue: number[] = [];
	private dropCount = 0;
	/** Served requests (the minute window and the day). */
	private hits: number[] = [];
	private creates: number[] = [];
	/** Requests answered 429 for a full minute, counted against the day only. */
	private rejected: number[] = [];

	setRateLimits(limits: RateLimits | boolean | null | Partial<RateLimits>): void {
		if (limits === true) this.rateLimits = { ...DEPLOYED_RATE_LIMITS };
		else if (!limits) this.rateLimits = null;
		else {
			const merged = { ...DEPLOYED_RATE_LIMITS, ...limits };
			// Strict unless explicitly false (a JSON body may carry anything).
			this.rateLimits = { ...merged, countRejected: merged.countRejected !== false };
		}
		this.hits = [];
		this.creates = [];
		this.rejected = [];
	}

	failNext(count: number, status: 500 | 503 = 500): void {
		for (let i = 0; i < count; i++) this.failQueue.push(status);
	}

	dropNext(count: number): void {
		this.dropCount += count;
	}

	takeFailure(): ApiError | undefined {
		const status = this.failQueue.shift();
		if (status === undefined) return undefined;
		return status === 503
			? new ApiError(
					503,
					'service_unavailable',
					'The service is temporarily unavailable (injected fault).',
					undefined,
					{ 'Retry-After': '1' },
				)
			: new ApiError(500, 'server_error', 'Internal server error (injected fault).');
	}

	takeDrop(): boolean {
		if (this.dropCount <= 0) return false;
		this.dropCount--;
		return true;
	}

	/**
	 * Counts this request and answers 429 when a window is full. A 429 for a full minute counts
	 * against the day (unless `countRejected` is false) but not in the minute; one for a full day is
	 * not counted.
	 */
	checkRateLimit(now: number, isCreate: boolean): ApiError | undefined {
		const limits = this.rateLimits;
		if (!limits) return undefined;
		this.prune(now);
		const lastMinute = this.hits.filter((t) => t > now - MINUTE);
		const over = (
			window: number[],
			max: number,
			span: number,
			what: string,
		): ApiError | undefined => {
			if (window.length < max) return undefined;
			const oldest = window[window.length - max];
			const retryAfter = Math.max(1, Math.ceil((oldest + span - now) / 1000));
			return new ApiError(
				429,
				'rate_limited',
				`Rate limit exceeded: ${max} ${what}. Retry in ${retryAfter} s.`,
				undefined,
				{ 'Retry-After': String(retryAfter) },
				{ retry_after: retryAfter },
			);
		};
		// The merged window is built only when it is full: benches run with a day of 1,000,000.
		const dayFull =
			this.hits.length + this.rejected.length >= limits.perDay
				? over(this.dayWindow(), limits.perDay, DAY, 'requests a day')
				: undefined;
		if (dayFull) return dayFull;
		const denied =
			over(lastMinute, limits.perMinute, MINUTE, 'requests a minute') ??
			(isCreate
				? over(this.creates, limits.createsPerMinute, MINUTE, 'scenario creations a minute')
				: undefined);
		if (denied) {
			if (limits.countRejected) this.rejected.push(now);
			return denied;
		}
		this.hits.push(now);
		if (isCreate) this.creates.push(now);
		return undefined;
	}

	/** What the windows hold at `now` (all zero with limits off). */
	usage(now: number): RateLimitUsage {
		this.prune(now);
		return {
			minute: this.hits.filter((t) => t > now - MINUTE).length,
			createsMinute: this.creates.length,
			day: this.hits.length + this.rejected.length,
			dayRejected: this.rejected.length,
		};
	}

	private prune(now: number): void {
		this.hits = this.hits.filter((t) => t > now - DAY);
		this.rejected = this.rejected.filter((t) => t > now - DAY);
		this.creates = this.creates.filter((t) => t > now - MINUTE);
	}

	/** Served and counted-rejected requests of the last day, oldest first (retry_after reads the order). */
	private dayWindow(): number[] {
		return [...this.hits, ...this.rejected].sort((a, b) => a - b);
	}

	reset(): void {
		this.latencyMs = 0;
		this.rateLimits = null;
		this.failQueue = [];
		this.dropCount = 0;
		this.hits = [];
		this.creates = [];
		this.rejected = [];
	}

	pending(): { failNext: number[]; dropNext: number } {
		return { failNext: [...this.failQueue], dropNext: this.dropCount };
	}
}
