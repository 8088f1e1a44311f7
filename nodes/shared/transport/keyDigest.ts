import { createHash } from 'node:crypto';

/**
 * How this process names a credential in its in-memory tables (pacing, the day's count, shared
 * reads): a digest of base URL and key, so the key itself is never kept.
 */
export function keyDigest(baseUrl: string, apiKey: string): string {
	return createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex');
}
