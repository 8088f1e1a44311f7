import type { DemoTimeFigures } from './scenarios/demoTime';
import type { JobListFigures } from './scenarios/jobList';
import type { PracticeQuotaFigures } from './scenarios/practiceQuota';
import type { TriggerQuotaFigures } from './scenarios/triggerQuota';
/** The shape of bench/results.json (tools read the keys the issue names from it). */
import type { PerItemFigures } from './scenarios/perItem';
import type { PackageFigures } from './scenarios/pkg';
import type { RateLimitedFigures } from './scenarios/rateLimited';
import type { ScaleDayFigures, TeamDayFigures } from './scenarios/teamDay';
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
	trigger?: TriggerQuotaFigures & { practice?: PracticeQuotaFigures };
	/** Item 7 (bench/scenarios/knowledgeHub.ts): Create From URL waiting for a one-minute extraction. */
	sourceWait?: SourceWaitFigures;
	/** Item 7: Knowledge Hub Page → Create or Update over 20 files, first run, unchanged rerun, one change. */
	pageSync?: PageSyncFigures;
	/** Item 8 (bench/scenarios/teamDay.ts): a team's ordinary weekday on one workspace, deployed limits on. */
	teamDay?: TeamDayFigures;
	/** Item 9 (issue 40): the team day at three sizes, with the Skill Tiers trigger and the weekly tier digest. */
	scale?: Partial<Record<string, ScaleDayFigures>>;
	/** Issue 55: a busy day at 2,000 members (3,000 sessions). */
	busyDay?: ScaleDayFigures;
	/** Issue 57 (bench/scenarios/demoTime.ts): `npm run demo` as a newcomer meets it, wall time and longest silence. */
	demo?: DemoTimeFigures;
	/** How time was scaled and anything that limits a figure. */
	notes: string[];
	durationSeconds: number;
}

export interface SourceWaitFigures {
	extractionSeconds: number;
	/** Counted in virtual time: pauses move the simulator's clock instead of passing. */
	virtualTime: boolean;
	/** API calls for one source, the create included (median of the runs). */
	callsPerSource: number | null;
	schedule: string;
	runsDetail: number[];
	/** Issue 32: 15 sources in one run (Create From URL over 15 items), creations and wait; goal ≤ 24. */
	requestsFor15Sources?: number;
}

export interface PageSyncFigures {
	pages: number;
	firstRunWrites: number;
	firstRunReads: number;
	/** Expected 0: an unchanged page gets no new draft or version. */
	writesOnUnchangedRerun: number;
	readsOnUnchangedRerun: number;
	writesAfterOneChange: number;
	readsAfterOneChange: number;
	/** 429 answers over the three runs (60 requests a minute), waited out and retried by the transport. */
	rateLimitedAnswers: number;
	/** Issue 32: 500 files into one folder (Within Folder), unchanged, the node's memory kept (active); goal ≤ 6. */
	requestsOnUnchangedRerun500?: number;
	/** The same without memory (a manual run); goal ≤ 506 (ceil(P/100) + N). */
	requestsOnUnchangedRerun500Manual?: number;
	/** One of the 500 files changed, memory kept; goal ≤ 8. */
	requestsOneChanged500?: number;
}
