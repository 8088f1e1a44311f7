// Test totals of each suite (unit, e2e), kept in .test-results/ so one closing line can sum them.
const fs = require('node:fs');
const path = require('node:path');

const DIR = path.join(__dirname, '..', '..', '.test-results');

/** Prints this suite's "N passed, N failed" line and keeps the figures for the closing total. */
function recordTotals(suite, passed, failed, skipped) {
	fs.mkdirSync(DIR, { recursive: true });
	fs.writeFileSync(path.join(DIR, `${suite}.json`), JSON.stringify({ passed, failed, skipped }));
	process.stdout.write(
		`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
	);
}

/** Forgets earlier runs, so a total never counts a suite that did not run this time. */
function clearTotals() {
	fs.rmSync(DIR, { recursive: true, force: true });
}

/** Sums every suite recorded since clearTotals(). */
function sumTotals() {
	const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((f) => f.endsWith('.json')) : [];
	const total = {
		passed: 0,
		failed: 0,
		skipped: 0,
		suites: files.map((f) => f.replace(/\.json$/, '')),
	};
	for (const file of files) {
		const figures = JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8'));
		total.passed += figures.passed;
		total.failed += figures.failed;
		total.skipped += figures.skipped;
	}
	return total;
}

module.exports = { recordTotals, clearTotals, sumTotals };

// `node test/support/totals.js clear|sum`: used by `npm test` around the suites.
if (require.main === module) {
	if (process.argv[2] === 'clear') clearTotals();
	else {
		const total = sumTotals();
		process.stdout.write(`\nSuites: ${total.suites.join(', ')}\n`);
		process.stdout.write(
			`Total: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}\n`,
		);
		process.exit(total.failed ? 1 : 0);
	}
}
