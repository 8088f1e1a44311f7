/** Switchable limits and faults: rate limits, latency, failing and dropped responses. */
import { ApiError } from './http';

export interface RateLimits {
	perMinute: number;
	/** Scenario creations (POST /scenario-studio/jobs and POST /scenario-studio) a minute. */
	createsPerMinute: number;
	perDay: number;
}

/** The deployed service's limits. */
export const DEPLOYED_RATE_LIMITS: RateLimits = {
	perMinute: 60,
	createsPerMinute: 10,
	perDay: 1000,
};

const MINUTE = 60_000;
const DAY = 86_400_000;

export class Faults {
	latencyMs = 0;
	rateLimits: RateLimits | null = null;
	private failQueue: number[] = [];
	private dropCount = 0;
	private hits: number[] = [];
	private creates: number[] = [];

	setRateLimits(limits: RateLimits | boolean | null | Partial<RateLimits>): void {
		if (limits === true) this.rateLimits = { ...DEPLOYED_RATE_LIMITS };
		else if (!limits) this.rateLimits = null;
		else this.rateLimits = { ...DEPLOYED_RATE_LIMITS, ...limits };
		this.hits = [];
		this.creates = [];
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

	/** Counts this request and answers 429 when a window is full (rejected requests are not counted). */
	checkRateLimit(now: number, isCreate: boolean): ApiError | undefined {
		const limits = this.rateLimits;
		if (!limits) return undefined;
		this.hits = this.hits.filter((t) => t > now - DAY);
		this.creates = this.creates.filter((t) => t > now - MINUTE);
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
		const denied =
			over(this.hits, limits.perDay, DAY, 'requests a day') ??
			over(lastMinute, limits.perMinute, MINUTE, 'requests a minute') ??
			(isCreate
				? over(this.creates, limits.createsPerMinute, MINUTE, 'scenario creations a minute')
				: undefined);
		if (denied) return denied;
		this.hits.push(now);
		if (isCreate) this.creates.push(now);
		return undefined;
	}

	reset(): void {
		this.latencyMs = 0;
		this.rateLimits = null;
		this.failQueue = [];
		this.dropCount = 0;
		this.hits = [];
		this.creates = [];
	}

	pending(): { failNext: number[]; dropNext: number } {
		return { failNext: [...this.failQueue], dropNext: this.dropCount };
	}
}
