// n8n-core writes `<N8N_USER_FOLDER>/.n8n/config` on load: keep it out of the user's home.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'wp-n8n-'));
}
process.env.N8N_LOG_LEVEL ??= 'silent';
