// Ends a jest run with the plain line CI reads, "N passed, N failed", and records the figures.
const { recordTotals } = require('./totals');

class SummaryReporter {
	onRunComplete(_contexts, results) {
		recordTotals(
			'unit',
			results.numPassedTests,
			results.numFailedTests + results.numRuntimeErrorTestSuites,
			results.numPendingTests + results.numTodoTests,
		);
	}
}
module.exports = SummaryReporter;
