/** Small numeric helpers: medians and timing. */
import { performance } from 'node:perf_hooks';

export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function round(value: number, digits = 2): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

/** Runs `work` and returns its result with the wall time in milliseconds. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
	const start = performance.now();
	const result = await work();
	return { result, ms: performance.now() - start };
}
