// Removes the run's temp folder made by globalSetup.js, with every n8n user folder in it.
const { rmSync } = require('node:fs');

module.exports = async () => {
	const folder = process.env.WSP_JEST_TEMP;
	if (folder) rmSync(folder, { recursive: true, force: true });
};
