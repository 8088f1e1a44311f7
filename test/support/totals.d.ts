/** Prints a suite's "N passed, N failed" line and keeps the figures for the closing total of `npm test`. */
export function recordTotals(suite: string, passed: number, failed: number, skipped: number): void;
export function clearTotals(): void;
export function sumTotals(): { passed: number; failed: number; skipped: number; suites: string[] };
