import { hasText } from '../values';

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
export function backoffDelay(attempt: number): number {
	const ceiling = Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** The wait the service asks for: `retry_after` in the body, else Retry-After (seconds or a date). */
export function rateLimitWaitMs(
	body: unknown,
	headers: Record<string, unknown>,
	now: number,
): number | undefined {
	// Top level or inside the error envelope: both occur.
	for (const holder of [body, (body as { error?: unknown } | null)?.error]) {
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

/** A 429 for the day: a longer wait, or a message naming the day ("… a day. Retry in N s."). */
export function isDayQuota(waitMs: number, message: string | undefined): boolean {
	return waitMs > RETRY.maxRateLimitWaitMs || /\b(a|per) day\b|daily/i.test(message ?? '');
}
