// n8n-core writes `<N8N_USER_FOLDER>/.n8n/config` on load: keep it out of the user's home. One folder per
// worker process, inside the run's temp folder (test/support/globalSetup.js), which the run removes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { setSafeRegexEngine } from 'n8n-workflow';

if (!process.env.N8N_USER_FOLDER) {
	const runFolder = process.env.WSP_JEST_TEMP;
	const folder = mkdtempSync(join(runFolder ?? tmpdir(), 'wp-n8n-'));
	process.env.N8N_USER_FOLDER = folder;
	// Outside a jest run with its globalSetup nothing else removes it.
	if (!runFolder) process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
}
process.env.N8N_LOG_LEVEL ??= 'silent';

// n8n-workflow's default regex engine runs each pattern in a vm with a 250 ms wall-clock timeout, so on
// a busy machine the engine's check of a resource locator's fixed pattern can fail ("Regular expression
// execution timed out", seen with two busy processes beside `npm test`). n8n-workflow lets its host
// choose the engine (setSafeRegexEngine); the harness chooses the plain one, so no test depends on the
// clock. The patterns are the nodes' own fixed ones.
setSafeRegexEngine({
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags) => Array.from(input.matchAll(new RegExp(pattern, flags))),
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
});
