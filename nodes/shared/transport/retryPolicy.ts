import { hasText } from '../values';

/**
 * When and how long to wait before asking again. Pure functions, so the rules are readable in one place.
 */

export const RETRY = {
	/** Attempts in all (first try included) for 5xx and network failures on requests safe to repeat. */
	maxAttempts: 4,
	baseDelayMs: 250,
	maxDelayMs: 8_000,
	/** A single 429 wait above this is not waited out (a daily quota, say): the user gets an error. */
	maxRateLimitWaitMs: 65_000,
	/** All 429 waits of one request together stay under this. */
	rateLimitBudgetMs: 300_000,
};

/** Exponential backoff with full jitter: spreads retries of parallel requests apart. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Milliseconds the service asks us to wait: `retry_after` in the body wins, then the Retry-After header
 * (seconds or an HTTP date). Undefined when neither says anything usable.
 */
export function rateLimitWaitMs(
	body: unknown,
	headers: Record<string, unknown>,
	now: number,
): number | undefined {
	// Top level or inside the error envelope: both placements occur.
	const envelope = (body as { error?: unknown } | null)?.error;
	for (const holder of [body, envelope]) {
		if (typeof holder !== 'object' || holder === null) continue;
		const value = (holder as Record<string, unknown>).retry_after;
		const seconds = typeof value === 'string' ? Number(value) : value;
		if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0)
			return seconds * 1000;
	}
	const header = headers['retry-after'];
	if (hasText(header)) {
		const seconds = Number(header);
		if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
		const date = Date.parse(header);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	return undefined;
}

/**
 * Whether a 429 is for the workspace's day rather than its minute: a wait no minute window could ask
 * for, or a message that names the day (the service says "… requests a day. Retry in N s.").
 */
export function isDayQuota(waitMs: number, message: string | undefined): boolean {
	return waitMs > RETRY.maxRateLimitWaitMs || /\b(a|per) day\b|daily/i.test(message ?? '');
}
