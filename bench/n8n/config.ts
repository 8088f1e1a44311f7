/** Knobs of `npm run bench:n8n`; `--quick` shrinks them for development (its figures are not recorded). */
import type { CallbackProfile } from './queue';

export interface N8nBenchConfig {
	quick: boolean;
	/** Runs per figure; each figure is the median. */
	runs: number;
	perItem: { items: number; latencyMs: number };
	/**
	 * Deployed limits, with the node at its default Batching (pacing on, as a user runs it). The node
	 * paces by real minutes, so the simulator's clock runs in real time (`timeScale` 1); another scale
	 * speeds the service's clock up (bench/scaledTime.ts) and turns the node's pacing off, so that
	 * run measures the 429 handling instead.
	 */
	limited: {
		items: number;
		perMinute: number;
		perDay: number;
		timeScale: number;
		latencyMs: number;
		runs: number;
	};
	returnAll: { rows: number; latencyMs: number };
	/** The job's length in real time (no scaling: n8n's own timers cannot be sped up from outside). */
	jobWait: { jobMs: number; queuedMs: number; naiveWaitSeconds: number };
	queue: {
		callbacks: number;
		duplicates: number;
		wrongSecret: number;
		overMs: number;
		pollingWaits: number;
		pollingJobMs: number;
		workerConcurrency: number;
		/** 100 callbacks a minute for 5 minutes (ten workspaces at their creation limit). */
		realistic: CallbackProfile;
	};
}

/** The burst of `queue` as a callback schedule (its repeats come ten deliveries after the first). */
export function burstProfile(cfg: N8nBenchConfig): CallbackProfile {
	const { callbacks, duplicates, wrongSecret, overMs } = cfg.queue;
	return { callbacks, duplicates, concurrentDuplicates: 0, wrongSecret, overMs };
}

export function benchConfig(quick: boolean): N8nBenchConfig {
	if (quick) {
		return {
			quick,
			runs: 2,
			perItem: { items: 100, latencyMs: 20 },
			// Two full minutes and a few seconds: about 2 minutes of real time.
			limited: { items: 150, perMinute: 60, perDay: 1000, timeScale: 1, latencyMs: 20, runs: 1 },
			returnAll: { rows: 2_000, latencyMs: 50 },
			jobWait: { jobMs: 60_000, queuedMs: 15_000, naiveWaitSeconds: 30 },
			queue: {
				callbacks: 50,
				duplicates: 5,
				wrongSecret: 5,
				overMs: 10_000,
				pollingWaits: 10,
				pollingJobMs: 30_000,
				workerConcurrency: 60,
				realistic: {
					callbacks: 50,
					duplicates: 3,
					concurrentDuplicates: 2,
					wrongSecret: 2,
					overMs: 30_000,
				},
			},
		};
	}
	return {
		quick,
		runs: 5,
		perItem: { items: 1_000, latencyMs: 20 },
		// Real time: 1,000 items at 60 a minute take about 17 minutes, so one run.
		limited: { items: 1_000, perMinute: 60, perDay: 1000, timeScale: 1, latencyMs: 20, runs: 1 },
		returnAll: { rows: 10_000, latencyMs: 50 },
		jobWait: { jobMs: 5 * 60_000, queuedMs: 15_000, naiveWaitSeconds: 30 },
		queue: {
			callbacks: 500,
			duplicates: 50,
			wrongSecret: 50,
			overMs: 60_000,
			pollingWaits: 100,
			pollingJobMs: 2 * 60_000,
			workerConcurrency: 60,
			// 10% repeats, half of them sent while the first delivery is still being handled.
			realistic: {
				callbacks: 500,
				duplicates: 25,
				concurrentDuplicates: 25,
				wrongSecret: 5,
				overMs: 5 * 60_000,
			},
		},
	};
}
