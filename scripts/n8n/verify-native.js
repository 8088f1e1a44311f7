// Checks that an install's native modules load and work under the Node that runs it. Plain JavaScript
// so any Node runs it (Node 24 for n8n 2.x, the machine's Node for 1.x, the test's fixture).
//   <node> scripts/n8n/verify-native.js <install folder> <from package> <module>...
// Modules are resolved as <from package> (e.g. n8n, or "." for the folder) resolves them, so the check sees the copies n8n
// loads. Known modules get a real smoke test (sqlite3 opens an in-memory database, isolated-vm runs code
// in an isolate); any other module only has to load. Exit 0 when all pass, 1 with one line per failure.
const { createRequire } = require('node:module');
const path = require('node:path');

const [dir, from, ...modules] = process.argv.slice(2);
if (!dir || !from || !modules.length) {
	process.stderr.write('usage: verify-native.js <install folder> <from package> <module>...\n');
	process.exit(2);
}
// "." resolves from the folder itself (a fixture's own package.json).
const base = from === '.' ? path.resolve(dir) : path.join(path.resolve(dir), 'node_modules', from);
const requireFrom = createRequire(path.join(base, 'package.json'));

const smoke = {
	sqlite3: (sqlite3) =>
		new Promise((resolve, reject) => {
			const db = new sqlite3.Database(':memory:', (openError) => {
				if (openError) return reject(openError);
				db.get('SELECT 41 + 1 AS answer', (queryError, row) => {
					db.close();
					if (queryError) reject(queryError);
					else if (!row || row.answer !== 42)
						reject(new Error(`unexpected answer ${JSON.stringify(row)}`));
					else resolve();
				});
			});
		}),
	'isolated-vm': async (ivm) => {
		const isolate = new ivm.Isolate({ memoryLimit: 16 });
		try {
			const context = isolate.createContextSync();
			const answer = context.evalSync('40 + 2');
			if (answer !== 42) throw new Error(`unexpected answer ${answer}`);
		} finally {
			isolate.dispose();
		}
	},
};

async function check(name) {
	const resolved = requireFrom.resolve(name);
	const loaded = requireFrom(name);
	if (smoke[name]) await smoke[name](loaded);
	else if (typeof loaded.check === 'function' && loaded.check() !== 42)
		throw new Error('check() did not answer 42');
	return resolved;
}

(async () => {
	let failed = 0;
	for (const name of modules) {
		try {
			const resolved = await check(name);
			process.stderr.write(
				`[verify-native] ${name} OK under Node ${process.version} (${path.relative(dir, resolved)})\n`,
			);
		} catch (error) {
			failed++;
			const message = String((error && error.message) || error).split('\n')[0];
			process.stderr.write(
				`[verify-native] ${name} FAILED under Node ${process.version}: ${message}\n`,
			);
		}
	}
	process.exit(failed ? 1 : 0);
})();
