// Runs the test tiers and closes with one "Total: N passed, N failed" line over all of them.
//   node test/support/tiers.js fast        npm test: build, lint, type check, format, every jest test (no n8n install)
//   node test/support/tiers.js e2e [args]  npm run test:e2e: the real-n8n suite (2.x, queue mode, 1.x); args go to e2e/run.ts
//   node test/support/tiers.js fast e2e    both, with one total line
// Each check (build, lint, type check) counts as one passed or failed test in the "checks" suite; a
// failing step does not stop the later ones, so one run shows everything that is wrong.
const { spawnSync } = require('node:child_process');
const { clearTotals, recordTotals, sumTotals } = require('./totals');

const CHECKS = [
	['build', ['npm', 'run', 'build', '--silent']],
	['lint', ['npm', 'run', 'lint', '--silent']],
	['type check', ['npm', 'run', 'typecheck', '--silent']],
	['format', ['npm', 'run', 'format:check', '--silent']],
];

function run(command) {
	const [bin, ...args] = command;
	const result = spawnSync(bin, args, { stdio: 'inherit' });
	return result.status === 0;
}

function fast() {
	let passed = 0;
	let failed = 0;
	for (const [name, command] of CHECKS) {
		process.stdout.write(`\n== ${name}\n`);
		if (run(command)) passed++;
		else {
			failed++;
			process.stdout.write(`== ${name} FAILED\n`);
		}
	}
	recordTotals('checks', passed, failed, 0);
	process.stdout.write(
		'\n== jest (engine tests, scanner analysis, lint rules, workflow lint, release)\n',
	);
	// jest's reporter records the "unit" suite itself (test/support/summaryReporter.js).
	if (!run(['npx', 'jest'])) process.exitCode = 1;
}

function e2e(extra) {
	process.stdout.write('\n== e2e: real n8n 2.x, queue mode, n8n 1.x\n');
	// e2e/run.ts records the "e2e" suite itself, also when it fails.
	run(['npx', 'tsx', 'e2e/run.ts', '--v1', ...extra]);
}

const args = process.argv.slice(2);
const tiers = args.filter((a) => a === 'fast' || a === 'e2e');
const extra = args.filter((a) => a !== 'fast' && a !== 'e2e');
if (!tiers.length) {
	process.stderr.write('usage: node test/support/tiers.js fast|e2e [fast|e2e] [e2e options]\n');
	process.exit(2);
}
// WSP_TOTALS_OUTER=1: a caller (.ci/run) runs several tiers as `npm test`, `npm run test:e2e` and closes
// with one total over all of them; it clears and sums the totals, each tier only records its suites.
const outer = process.env.WSP_TOTALS_OUTER === '1';
if (!outer) clearTotals();
const before = sumTotals().suites.length;
for (const tier of tiers) (tier === 'fast' ? fast : () => e2e(extra))();
const total = sumTotals();
if (!outer) {
	process.stdout.write(`\nSuites: ${total.suites.join(', ')}\n`);
	process.stdout.write(
		`Total: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}\n`,
	);
}
process.exit(total.failed || total.suites.length - before < tiers.length ? 1 : 0);
