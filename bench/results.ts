import type { JobListFigures } from './scenarios/jobList';
import type { TriggerQuotaFigures } from './scenarios/triggerQuota';
/** The shape of bench/results.json (tools read the keys the issue names from it). */
import type { PerItemFigures } from './scenarios/perItem';
import type { PackageFigures } from './scenarios/pkg';
import type { RateLimitedFigures } from './scenarios/rateLimited';
import type { ListFigures } from './scenarios/returnAll';

export interface JobWaitFigures {
	measured: boolean;
	jobMinutes: number;
	timeScale: number;
	/** API calls for one job, create included. */
	callbackCalls: number | null;
	pollingCalls: number | null;
	naiveCalls: number | null;
	/** Calls of every run, by mode. */
	runsDetail?: Array<{ callback: number; polling: number; naive: number }>;
	/** 50 jobs By Polling in one execution under the deployed creation limit (bench/scenarios/jobList.ts). */
	list50?: JobListFigures;
	note?: string;
}

export interface BenchResults {
	date: string;
	nodeVersion: string;
	n8nCoreVersion: string;
	machine: {
		cpus: number;
		cpuModel: string;
		memoryGb: number;
		platform: string;
		arch: string;
		loadAverage: number[];
	};
	runs: number;
	/** What the rows of items 1 and 2 are. */
	target: string;
	returnAll: ListFigures & { latencyMs: number; floorRatio: number };
	limit120: ListFigures;
	rateLimited: RateLimitedFigures;
	jobWait: JobWaitFigures;
	perItem: PerItemFigures;
	package: PackageFigures & { peakRssMb: number; engineRssMb: number };
	trigger?: TriggerQuotaFigures;
	/** How time was scaled and anything that limits a figure. */
	notes: string[];
	durationSeconds: number;
}
