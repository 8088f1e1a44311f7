// One temp folder for a jest run, made the system temp folder of the tests: each worker's n8n user folder
// (n8n-harness/setupEnv.ts) and whatever tests and the tools they run put in the temp folder land in
// it, and globalTeardown.js removes it, so a run leaves nothing in the system temp folder.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const TEMP_VARIABLES = ['TMPDIR', 'TMP', 'TEMP'];

module.exports = async () => {
	const folder = mkdtempSync(join(tmpdir(), 'wp-jest-'));
	process.env.WSP_JEST_TEMP = folder;
	process.env.WSP_JEST_TEMP_BEFORE = JSON.stringify(
		Object.fromEntries(TEMP_VARIABLES.map((name) => [name, process.env[name] ?? null])),
	);
	// Workers start after this and inherit the environment; so do the processes tests spawn.
	for (const name of TEMP_VARIABLES) process.env[name] = folder;
};
