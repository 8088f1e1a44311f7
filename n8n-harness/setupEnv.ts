// n8n-core writes `<N8N_USER_FOLDER>/.n8n/config` on load: keep it out of the user's home. One folder per
// worker process, inside the run's temp folder (test/support/globalSetup.js), which the run removes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.N8N_USER_FOLDER) {
	const runFolder = process.env.WSP_JEST_TEMP;
	const folder = mkdtempSync(join(runFolder ?? tmpdir(), 'wp-n8n-'));
	process.env.N8N_USER_FOLDER = folder;
	// Outside a jest run with its globalSetup nothing else removes it.
	if (!runFolder) process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
}
process.env.N8N_LOG_LEVEL ??= 'silent';
