import { createHash } from 'node:crypto';

/** A credential's name in this process's tables (pacing, the day's count): never the key itself. */
export function keyDigest(baseUrl: string, apiKey: string): string {
	return createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex');
}
