// One temp folder for a jest run: each worker's n8n user folder goes inside it (n8n-harness/setupEnv.ts),
// and globalTeardown.js removes it, so a run leaves nothing in the system temp folder.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async () => {
	// Workers start after this and inherit the environment.
	process.env.WSP_JEST_TEMP = mkdtempSync(join(tmpdir(), 'wp-jest-'));
};
