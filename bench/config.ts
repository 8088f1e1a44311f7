/**
 * The bench's knobs in one place. Defaults keep `npm run bench` within a few minutes on 2 shared cores;
 * environment variables override them for a longer, steadier run.
 */

function intFromEnv(name: string, fallback: number): number {
	const raw = process.env[name];
	const value = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
	return Number.isInteger(value) && value > 0 ? value : fallback;
}

export const config = {
	/** Runs per figure; every figure is the median of these. BENCH_RUNS overrides. */
	runs: intFromEnv('BENCH_RUNS', 5),
	/** Rows behind item 1 and 2 (scenarios, or members until Scenario → Get Many exists). */
	rows: 10_000,
	/** Injected latency of item 1, as the issue asks. */
	latencyMs: 50,
	/** What a user's HTTP Request node pagination asks for per page. */
	baselinePageSize: 50,
	/** Limit of the "Limit 120" variant of item 1. */
	limit: 120,
	/**
	 * Item 2: the simulator's clock runs this many times faster than real time, so the 60-a-minute
	 * window lasts 60 / scale seconds. Latency and Retry-After are scaled the same way.
	 */
	rateLimitTimeScale: intFromEnv('BENCH_RATE_SCALE', 10),
	rateLimitPerMinute: 60,
	/** Item 3: a 5-minute job, run this many times faster than real time. */
	jobTimeScale: intFromEnv('BENCH_JOB_SCALE', 60),
	jobDurationMs: 5 * 60_000,
	/** The interval of the naive poller a user builds (a Wait node of 5 s in a loop). */
	naivePollMs: 5_000,
	/** Item 4: items through one operation, and the latency each request sees. */
	perItemCount: 1_000,
	perItemLatencyMs: intFromEnv('BENCH_PER_ITEM_LATENCY', 5),
	/** Fresh processes per module for the load-time figure. */
	loadRuns: intFromEnv('BENCH_LOAD_RUNS', 7),
};

export type BenchConfig = typeof config;
