// Puts the system temp folder back and removes the run's temp folder made by globalSetup.js.
const { rmSync } = require('node:fs');

module.exports = async () => {
	const folder = process.env.WSP_JEST_TEMP;
	const before = JSON.parse(process.env.WSP_JEST_TEMP_BEFORE ?? '{}');
	for (const [name, value] of Object.entries(before)) {
		if (value === null) delete process.env[name];
		else process.env[name] = value;
	}
	if (folder) rmSync(folder, { recursive: true, force: true });
};
