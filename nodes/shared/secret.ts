import { timingSafeEqual } from 'node:crypto';

/** Constant-time: only a length mismatch shows. False for a missing, empty or different value. */
export function secretsMatch(given: unknown, expected: string): boolean {
	if (typeof given !== 'string' || given === '' || expected === '') return false;
	const a = Buffer.from(given, 'utf8');
	const b = Buffer.from(expected, 'utf8');
	// timingSafeEqual throws on different lengths.
	if (a.length !== b.length) return false;
	return timingSafeEqual(a, b);
}

/** First value of a header, whatever its case; Node gives arrays for repeated headers. */
export function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
	const wanted = name.trim().toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted) continue;
		if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
		return typeof value === 'string' ? value : undefined;
	}
	return undefined;
}
