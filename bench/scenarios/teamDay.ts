/**
 * A team's ordinary weekday on one workspace (issue 33), with the deployed limits on (60 requests a
 * minute, 10 creations a minute, 1,000 a day), in virtual time: the simulator's clock and this process's
 * Date.now move together, minute by minute, and every pause of a node from a second to two minutes
 * (pacing, 429 waits, job polling) moves them instead of passing. Request counts, machine-independent.
 *
 * The workflows, each as n8n would run it through n8n-core's engine:
 * - "Knowledge Hub watcher": the trigger with every event, its defaults (Poll Times Every Minute, Max
 *   Reads a Day 12: a read every 2 hours);
 * - "Coach alert": Practice Results, Session Scored with Score Below 60, polled on working-hours Poll
 *   Times (PRACTICE_READS: n8n's cron in the workflow's zone, minute by minute);
 * - "Past-due digest": Practice Results, Assignment Past Due, on the same Poll Times;
 * - "Nightly sync" at 02:00: Knowledge Hub Page → Create or Update over 300 Markdown files, 5 changed
 *   (Within Folder, an active workflow: the node keeps what it synced in its static data);
 * - "Scenario jobs": 20 Scenario Job → Create in working hours, 15 with the Job Trigger's URL as callback
 *   ("Job Trigger", confirming with the API as by default), 5 By Polling;
 * - "Chat agent": 60 tool calls in working hours (Skill → Get Many through the AI-tool variant);
 * - the workspace: 200 members, 150 sessions scored in working hours (a third listed unscored and
 *   scored 10 to 40 minutes later), 10 assignments falling past due through the day.
 * Working hours are 09:00 to 17:00, Monday to Friday, in the workflows' time zone (America/New_York).
 *
 * The same day at other sizes (issue 40, `benchScaleDay`): the workspace grown to a `DaySize`, the
 * sessions spread over the scenarios and the practising members (a quarter of them on a scenario the
 * member was assigned), calls logged, the Skill Tiers trigger (every skill, a read a day) and the weekly
 * tier digest (Skill → Get Tier Changes, every skill, at 07:00 on its weekday, this Wednesday) added.
 * Past-due events are judged by an oracle from the simulator's assignment log, not the trigger's rules;
 * every other family per ID by dayOracle.ts (issue 48), Tier Changed included.
 * The practice triggers are measured in their ordinary state too: activated a day before the setup and
 * polled at their Poll Times since, so their read quota is as a working day leaves it.
 * Issue 48 adds "Outcomes" to the scale day (Practice Results on Assignment Completed and Did Not
 * Pass, the practice Poll Times, judged per assignment ID against the log), the activation day (the
 * practice triggers activated at 09:00 on it) and the first week (`benchScaleDay`).
 */
import { performance } from 'node:perf_hooks';

import type { CronExpression, IDataObject, INodeParameters, TriggerTime } from 'n8n-workflow';

import { ManualClock, startSimulator, type RunningSimulator } from '../../simulator';
import { fillPractice } from '../../simulator/state/practice';
import type { AssignmentChange } from '../../simulator/state/types';
import { PollHarness } from '../../n8n-harness/pollHarness';
import { pollTimes } from '../../n8n-harness/pollTimes';
import { runNode } from '../../n8n-harness/runNode';
import { runToolCalls } from '../../n8n-harness/runTool';
import { TriggerEndpoint } from '../../n8n-harness/webhookTrigger';
import { WebhookServer } from '../../n8n-harness/webhookServer';
import { DEFAULT_MAX_READS } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/settings';
import * as oracle from './dayOracle';
import type { FamilyFigures, Sent, TierPoll } from './dayOracle';

export type { FamilyFigures } from './dayOracle';

export interface TeamDayFigures {
	/** Requests the workspace counted against the day (served, and 429s for a full minute). */
	requestsPerDay: number;
	goalRequestsPerDay: number;
	requestsPerWorkflow: Record<string, number>;
	rateLimitedAnswers: number;
	missedEvents: number;
	duplicateEvents: number;
	/** Session Scored events of sessions scored in working hours: minutes from score to event. */
	practiceMedianDelayMinutesWorkingHours: number | null;
	goalPracticeMedianDelayMinutes: number;
	families: Record<string, FamilyFigures>;
	/** How the practice triggers were set (Poll Times and Max Reads a Day). */
	practiceSchedule: string;
	/** The same day with the practice triggers at the defaults (Poll Times Every Minute, 48 reads a day). */
	evenly?: Pick<
		TeamDayFigures,
		| 'requestsPerDay'
		| 'requestsPerWorkflow'
		| 'rateLimitedAnswers'
		| 'missedEvents'
		| 'practiceMedianDelayMinutesWorkingHours'
	>;
	timeZone: string;
}

/** A workspace's size for the day (issue 40). */
export interface DaySize {
	name: string;
	members: number;
	skills: number;
	/** Sessions scored in working hours. */
	scoredSessions: number;
	/** Calls logged in working hours (observations of a skill, no session). */
	calls: number;
	/** Open assignments at the start of the day (a third of them already past due). */
	openAssignments: number;
	/** Knowledge Hub pages besides the synced files' own. */
	pages: number;
	/** Markdown files the nightly sync reads (5 changed). */
	files: number;
	/** Scenario jobs in working hours (a quarter By Polling). */
	jobs: number;
}

/** The three sizes of issue 40. */
export const SIZES: Record<'team' | 'org500' | 'enterprise2000', DaySize> = {
	team: {
		name: 'team',
		members: 200,
		skills: 20,
		scoredSessions: 150,
		calls: 0,
		openAssignments: 300,
		pages: 0,
		files: 300,
		jobs: 20,
	},
	org500: {
		name: 'org500',
		members: 500,
		skills: 40,
		scoredSessions: 400,
		calls: 0,
		openAssignments: 1500,
		pages: 1000,
		files: 500,
		jobs: 40,
	},
	enterprise2000: {
		name: 'enterprise2000',
		members: 2000,
		skills: 80,
		scoredSessions: 1500,
		calls: 100,
		openAssignments: 5000,
		pages: 10000,
		files: 2000,
		jobs: 60,
	},
};

/** What the scale day adds to the team day's figures (issue 40's keys). */
export interface ScaleDayFigures {
	size: DaySize;
	requestsPerDay: number;
	goalRequestsPerDay: number;
	requestsPerWorkflow: Record<string, number>;
	rateLimitedAnswers: number;
	/** The 429 answers by path (which workflow's reads met the limit). */
	rateLimitedPaths: Record<string, number>;
	missedEvents: number;
	duplicateEvents: number;
	practiceMedianDelayMinutesWorkingHours: number | null;
	/** The largest static data (JSON bytes) any trigger kept at the end of any hour of the day. */
	staticDataBytesMax: number;
	staticDataBytesPerWorkflow: Record<string, number>;
	/** Requests not sent thanks to shared reads: 0, shared reads are gone (the lead's decision). */
	sharedReadsSaved: number;
	/** Errors a workflow's run or poll ended with (message, count), e.g. a state refused or 429. */
	errors: Record<string, string[]>;
	/** Tier Changed events the Skill Tiers trigger sent; rows the weekly digest listed. */
	tierEvents: number;
	tierDigestRows: number;
	/** The Skill Tiers trigger's polls before the day (uncounted): what its activation days cost. */
	skillTiersWarmUp: SkillTiersWarmUp;
	/** The past-due oracle: logged changes, those judged, and why the others were not. */
	pastDueOracle: PastDueOracle;
	families: Record<string, FamilyFigures>;
	practiceSchedule: string;
	timeZone: string;
	/** Seconds of machine time the day took (varies with the machine; not a figure to compare). */
	runSeconds: number;
	/**
	 * Issue 48: the same day with the practice triggers (coach alert, past-due digest, outcomes)
	 * activated at 09:00 on it, their quota as a new trigger's; the other workflows as on the day.
	 */
	activationDay?: ActivationDayFigures;
	/**
	 * Issue 48: the first week after activating every workflow, day by day: the activation day, then
	 * ordinary days with the Skill Tiers trigger's cost replaced by its warm-up's day (its sweep not yet
	 * round); the dearest of them. The Knowledge Hub import of the files (the sync's first run) is a
	 * one-off set-up before it, not counted (2 requests a file).
	 */
	firstWeekRequestsByDay?: number[];
	firstWeekMaxRequestsPerDay?: number;
	/** Issue 55: every family's events missed in the first week (at the advised settings); must be 0. */
	firstWeekMissedEvents?: number;
	/** Issue 55: the first week run day by day at the advised Sweep Every (Days). */
	firstWeek?: FirstWeekFigures;
	/** Issue 55: at 2,000 members, the same week at the form's default Sweep Every (Days), 7. */
	firstWeekDefaultSweep?: FirstWeekFigures;
	/** The 429 answers' first instants and paths (when there were any). */
	rateLimitedFirst?: string[];
	sameDayOutcomes?: SameDayOutcomes;
	pastDueFirstDay?: PastDueFirstDay;
	/** The week's days (runDay with a WeekPlan). */
	week?: {
		sweepDays: number;
		byDay: WeekDayFigures[];
		missedByDay: number[];
		coachMedianByDay: Array<number | null>;
	};
}

function sameDayOutcomes(
	changes: AssignmentChange[],
	given: number,
	sent: Map<string, number[]>,
): SameDayOutcomes {
	const EVENT: Record<string, string> = {
		completed: 'assignmentCompleted',
		did_not_pass: 'assignmentDidNotPass',
	};
	const finished = changes.filter((c) => c.to in EVENT);
	const lags: number[] = [];
	for (const c of finished) {
		const times = sent.get(`${c.id}|${EVENT[c.to]}`) ?? [];
		if (times.length) lags.push(workingMinutes(c.at, Math.min(...times)) / 60);
	}
	lags.sort((a, b) => a - b);
	const n = lags.length;
	const hours = (h: number) => Math.round(h * 100) / 100;
	return {
		given,
		finished: finished.length,
		sent: n,
		medianWorkingHours: n ? hours(lags[Math.floor((n - 1) / 2)]) : null,
		p90WorkingHours: n ? hours(lags[Math.ceil(0.9 * n) - 1]) : null,
		maxWorkingHours: n ? hours(lags[n - 1]) : null,
	};
}

/** One day of the first week (issue 55). */
export interface WeekDayFigures {
	date: string;
	requests: number;
	rateLimitedAnswers: number;
	requestsPerWorkflow: Record<string, number>;
	/** Errors a workflow's run or poll ended with that day. */
	errors: number;
}

/** Issue 55: the first week run day by day, one world, every trigger activated at 09:00 on day 1. */
export interface FirstWeekFigures {
	sweepDays: number;
	requestsByDay: number[];
	maxRequestsPerDay: number;
	rateLimitedByDay: number[];
	/** Events missed (or sent after the docs' bound) by the day they changed, every family. */
	missedByDay: number[];
	/** Median minutes from score to Session Scored, sessions scored in working hours, by day. */
	sessionScoredMedianByDay: Array<number | null>;
	missedEvents: number;
	duplicateEvents: number;
	unexpectedEvents: number;
	families: Record<string, FamilyFigures>;
	requestsPerWorkflowByDay: Array<Record<string, number>>;
	rateLimitedPaths: Record<string, number>;
	rateLimitedFirst?: string[];
	sameDayOutcomes: SameDayOutcomes;
	pastDueFirstDay?: PastDueFirstDay;
	errors: Record<string, string[]>;
	runSeconds: number;
}

/** Issue 54: outcomes of assignments given during the day (the morning) and practised that day. */
export interface SameDayOutcomes {
	given: number;
	/** Finished (completed or did not pass) in the judged window. */
	finished: number;
	sent: number;
	/** Working hours from the change to the event (median, p90, max). */
	medianWorkingHours: number | null;
	p90WorkingHours: number | null;
	maxWorkingHours: number | null;
}

/** Issue 55: a past-due digest activated at 09:00: past-due changes after it that day, and those it sent that day. */
export interface PastDueFirstDay {
	pastDueAfterActivation: number;
	sentThatDay: number;
}

export interface ActivationDayFigures {
	requestsPerDay: number;
	requestsPerWorkflow: Record<string, number>;
	rateLimitedAnswers: number;
	missedEvents: number;
	duplicateEvents: number;
	/** Session Scored of sessions scored in working hours after the 09:00 activation. */
	practiceMedianDelayMinutesWorkingHours: number | null;
	/** Every family judged per ID (dayOracle.ts), as on the day. */
	families?: Record<string, FamilyFigures>;
}

/**
 * The Skill Tiers trigger before the measured day: activated at 23:00 a sweep period and a day before
 * it, then polled at 23:00 every day, the deployed limits off, its static data kept from poll to poll.
 */
export interface SkillTiersWarmUp {
	/** Options → Sweep Every (Days) of the trigger. */
	sweepDays: number;
	/** Days it was polled before the measured day, the first its activation. */
	days: number;
	activatedAt: string;
	/** Requests of those polls, all days; and day by day, the activation first. */
	requests: number;
	requestsByDay: number[];
	/** Tier Changed events those polls sent. */
	tierEvents: number;
}

export interface PastDueOracle {
	/** Changes to past_due the simulator logged during the day. */
	logged: number;
	/** Those the digest had to send: still past due at the next read of the open assignments. */
	expected: number;
	/** Sent by that read (or earlier). */
	onTime: number;
	/** Sent, but by a later read. */
	late: number;
	/** Ended (finished, or moved) before the next read of the open assignments: not sent, as the docs say. */
	endedBeforeRead: number;
	/** Logged after the day's last read of the open assignments: sent on the next day. */
	afterLastRead: number;
}

const MINUTE = 60_000;
const ZONE = 'America/New_York';
/** Wednesday 18 March 2026, 00:00 in New York (UTC-4). */
const DAY_START = Date.parse('2026-03-18T04:00:00.000Z');

/** Working hours (09:00 to 17:00, Monday to Friday, in the workflows' zone; no DST change in the days run). */
const WORK_DAY_FROM = 9 * 60;
const WORK_DAY_TO = 17 * 60;
const OFFSET = DAY_START - Date.parse('2026-03-18T00:00:00.000Z');
function inWorkingHours(t: number): boolean {
	const local = new Date(t - OFFSET);
	const minute = local.getUTCHours() * 60 + local.getUTCMinutes();
	const weekday = local.getUTCDay();
	return weekday >= 1 && weekday <= 5 && minute >= WORK_DAY_FROM && minute < WORK_DAY_TO;
}

/** Working minutes between two instants (minute by minute: delays of a few days at most). */
function workingMinutes(from: number, to: number): number {
	let n = 0;
	for (let t = from; t < to; t += MINUTE) if (inWorkingHours(t)) n++;
	return n;
}
const CHANGED = 5;
const DAY_MS = 24 * 60 * MINUTE;
/** Monday 16 March 2026, 00:00 in New York: the first week's first day (issue 55). */
const WEEK_START = Date.parse('2026-03-16T04:00:00.000Z');

/** Issue 55: the first week, one world living `days` days, every trigger activated on the first at 09:00. */
export interface WeekPlan {
	days: number;
	/** Options → Sweep Every (Days) of the Skill Tiers trigger. */
	sweepDays: number;
}

/** The simulator's clock and Date.now, moved together; node pauses of 1 s to 2 min move them too. */
class VirtualTime {
	private host: number;
	private readonly realNow = Date.now.bind(Date);
	private readonly realTimeout = globalThis.setTimeout;

	constructor(
		private readonly sim: RunningSimulator,
		start: number,
	) {
		this.host = start;
	}

	now(): number {
		return this.host;
	}

	advance(ms: number): void {
		if (ms <= 0) return;
		this.host += ms;
		this.sim.control.advance(ms);
	}

	install(): () => void {
		Date.now = () => this.host;
		const timeout = (handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
			if (typeof ms !== 'number' || ms < 1000 || ms > 120_000)
				return this.realTimeout(handler, ms, ...args);
			this.advance(ms);
			return this.realTimeout(handler, 0, ...args);
		};
		globalThis.setTimeout = timeout as unknown as typeof setTimeout;
		return () => {
			globalThis.setTimeout = this.realTimeout;
			Date.now = this.realNow;
		};
	}
}

const fileItem = (i: number, text: string): IDataObject => ({
	fileName: `Playbook ${i}.md`,
	$binary: {
		data: {
			data: Buffer.from(text, 'utf8').toString('base64'),
			mimeType: 'text/markdown',
			fileName: `Playbook ${i}.md`,
			fileExtension: 'md',
		},
	},
});

const SYNC_FORM = {
	resource: 'knowledgeHubPage',
	operation: 'createOrUpdate',
	title: "={{ $json.fileName.replace(/\\.md$/, '') }}",
	contentFrom: 'binary',
};

function family(delays: number[], expected: number, ids: string[]): FamilyFigures {
	const sorted = [...delays].sort((a, b) => a - b);
	const distinct = new Set(ids).size;
	return {
		expected,
		delivered: distinct,
		missed: Math.max(0, expected - distinct),
		duplicates: ids.length - distinct,
		unexpected: 0,
		medianDelayMinutes: sorted.length ? round(sorted[Math.floor((sorted.length - 1) / 2)]) : null,
		p90DelayMinutes: sorted.length ? round(sorted[Math.ceil(0.9 * sorted.length) - 1]) : null,
		worstDelayMinutes: sorted.length ? round(sorted[sorted.length - 1]) : null,
	};
}

const round = (n: number) => Math.round(n * 10) / 10;

/** How the practice triggers read: their Poll Times (n8n's cron, in the workflow's zone) and Options. */
export interface PracticeReads {
	pollTimes: TriggerTime[];
	options: INodeParameters;
	label: string;
}

/** Working hours as Poll Times: every 10 minutes Mon-Fri 09:00-17:00, every 6 hours otherwise. */
export const PRACTICE_READS: PracticeReads = {
	pollTimes: [
		{ mode: 'custom', cronExpression: '0 */10 9-16 * * 1-5' as CronExpression },
		// Every 6 hours from 05:05: the evening poll at 23:05 finds what fell past due after work.
		{ mode: 'custom', cronExpression: '0 5 5-23/6 * * *' as CronExpression },
	],
	options: {},
	label:
		'Poll Times every 10 minutes Mon-Fri 09:00-17:00 and every 6 hours, Max Reads a Day 48 (the default)',
};

/** The practice triggers at the defaults: Poll Times Every Minute, Max Reads a Day 48. */
export const PRACTICE_EVENLY: PracticeReads = {
	pollTimes: [{ mode: 'everyMinute' }],
	options: {},
	label: 'Poll Times Every Minute, Max Reads a Day 48 (the defaults: a read every 30 minutes)',
};

export async function benchTeamDay(
	practice: PracticeReads = PRACTICE_READS,
): Promise<TeamDayFigures> {
	const day = await runDay(SIZES.team, practice, false);
	return day.team;
}

/** The day at one of issue 40's sizes, with the Skill Tiers trigger and the weekly tier digest. */
export async function benchScaleDay(size: DaySize): Promise<ScaleDayFigures> {
	const day = (await runDay(size, PRACTICE_READS, true)).scale;
	// Issue 55: the first week, day by day (one world living 7 days), at the advised Sweep Every (Days)
	// and, at 2,000 members, at the form's default too. Its first day is the activation day (issue 48):
	// every trigger activated at 09:00 on it.
	const advised = await benchFirstWeek(size, advisedSweepDays(size));
	const activationDay: ActivationDayFigures = {
		requestsPerDay: advised.requestsByDay[0],
		requestsPerWorkflow: advised.requestsPerWorkflowByDay[0],
		rateLimitedAnswers: advised.rateLimitedByDay[0],
		missedEvents: advised.missedByDay[0],
		duplicateEvents: advised.duplicateEvents,
		practiceMedianDelayMinutesWorkingHours: advised.sessionScoredMedianByDay[0],
	};
	const byDefault = size.name === 'enterprise2000' ? await benchFirstWeek(size, 7) : undefined;
	return {
		...day,
		activationDay,
		firstWeekRequestsByDay: advised.requestsByDay,
		firstWeekMaxRequestsPerDay: advised.maxRequestsPerDay,
		firstWeekMissedEvents: advised.missedEvents,
		firstWeek: advised,
		...(byDefault ? { firstWeekDefaultSweep: byDefault } : {}),
	};
}

/** Issue 55: the first week at a size, every day run and judged per ID (dayOracle.ts). */
export async function benchFirstWeek(size: DaySize, sweepDays: number): Promise<FirstWeekFigures> {
	const s = (await runDay(size, PRACTICE_READS, true, true, { days: 7, sweepDays })).scale;
	const byDay = s.week?.byDay ?? [];
	const requestsByDay = byDay.map((d) => d.requests);
	const sum = (pick: (f: FamilyFigures) => number) =>
		Object.values(s.families).reduce((n, f) => n + pick(f), 0);
	return {
		sweepDays,
		requestsByDay,
		maxRequestsPerDay: Math.max(...requestsByDay),
		rateLimitedByDay: byDay.map((d) => d.rateLimitedAnswers),
		missedByDay: s.week?.missedByDay ?? [],
		sessionScoredMedianByDay: s.week?.coachMedianByDay ?? [],
		missedEvents: s.missedEvents,
		duplicateEvents: s.duplicateEvents,
		unexpectedEvents: sum((f) => f.unexpected),
		families: s.families,
		requestsPerWorkflowByDay: byDay.map((d) => d.requestsPerWorkflow),
		rateLimitedPaths: s.rateLimitedPaths,
		...(s.rateLimitedFirst ? { rateLimitedFirst: s.rateLimitedFirst } : {}),
		sameDayOutcomes: s.sameDayOutcomes ?? sameDayOutcomes([], 0, new Map()),
		...(s.pastDueFirstDay ? { pastDueFirstDay: s.pastDueFirstDay } : {}),
		errors: s.errors,
		runSeconds: s.runSeconds,
	};
}

/** Issue 55: a busy day at 2,000 members (3,000 sessions), the Outcomes workflow beside the others. */
export const BUSY_DAY: DaySize = {
	...SIZES.enterprise2000,
	name: 'busy2000',
	scoredSessions: 3000,
};

export async function benchBusyDay(): Promise<ScaleDayFigures> {
	return (await runDay(BUSY_DAY, PRACTICE_READS, true)).scale;
}

/**
 * The Skill Tiers trigger's Poll Times (n8n's cron in the workflow's zone), as the docs advise (issue
 * 55: every minute through the read's hour, so a read that needs several polls goes on a minute
 * later and ends within its hour) but in the 23:00 hour: after the working day, so its read covers a
 * day of practice as a 06:00 read covers the day before; within its default quota of one read a day.
 * Before issue 55 the bench polled once, at 23:00 (the docs then: Every Day at 6).
 */
export const TIER_READS: { pollTimes: TriggerTime[]; label: string } = {
	pollTimes: [{ mode: 'custom', cronExpression: '0 * 23 * * *' as CronExpression }],
	label:
		'Poll Times Custom "0 * 23 * * *" (every minute from 23:00 to 23:59, as the docs advise), Max Reads a Day 1 (the default)',
};
/** The Skill Tiers trigger's Options at a size. */
const tierOptions = (size: DaySize): INodeParameters =>
	// The admin's choice the form names for a workspace this size: the sweep for calls every 30 days
	// instead of 7 (at 7 it alone costs 229 requests a day at 2,000 × 80).
	size.members >= 2000 ? { sweepDays: 30 } : {};
/** The Sweep Every (Days) the form advises at a size (the first week's advised run). */
export const advisedSweepDays = (size: DaySize): number => Number(tierOptions(size).sweepDays ?? 7);

/**
 * The Skill Tiers trigger's polls before the measured day, so the day sees it in its ordinary state
 * (every skill swept once, every member known): the activation at 23:00 on the day `sweepDays + 1`
 * days before, then its Poll Times of every night up to the eve of the measured day.
 */
function tierWarmUpPolls(sweepDays: number): number[] {
	return pollTimes(TIER_READS.pollTimes, ZONE, DAY_START - (sweepDays + 1) * DAY_MS, DAY_START);
}

export const GOALS: Record<string, number> = { team: 350, org500: 500, enterprise2000: 900 };

/**
 * The past-due oracle, from the simulator's log alone: each change to past_due logged during the day
 * is due from the first read of the open assignments (a request listing past_due) at or after it,
 * unless the assignment's status changed again before that read (the docs: a past-due state that ends
 * before the next read of the open assignments is not sent).
 */
function judgePastDue(
	log: AssignmentChange[],
	openReads: number[],
	sent: Map<string, number[]>,
): {
	oracle: PastDueOracle;
	missed: number;
	duplicates: number;
	unexpected: number;
	missedAt: number[];
} {
	const oracle: PastDueOracle = {
		logged: 0,
		expected: 0,
		onTime: 0,
		late: 0,
		endedBeforeRead: 0,
		afterLastRead: 0,
	};
	let missed = 0;
	const missedAt: number[] = [];
	const expectedIds = new Set<string>();
	for (const change of log) {
		if (change.to !== 'past_due') continue;
		oracle.logged++;
		const read = openReads.find((t) => t >= change.at);
		if (read === undefined) {
			oracle.afterLastRead++;
			continue;
		}
		if (log.some((c) => c.id === change.id && c.at > change.at && c.at <= read)) {
			oracle.endedBeforeRead++;
			continue;
		}
		oracle.expected++;
		expectedIds.add(change.id);
		const times = sent.get(change.id) ?? [];
		if (times.some((t) => t >= change.at && t <= read)) oracle.onTime++;
		else if (times.some((t) => t > read)) {
			oracle.late++;
			missed++;
			missedAt.push(change.at);
		} else {
			missed++;
			missedAt.push(change.at);
		}
	}
	let duplicates = 0;
	for (const times of sent.values()) duplicates += Math.max(0, times.length - 1);
	// A past-due event the log does not explain (sent with no change) is unexpected.
	const unexpected = [...sent.keys()].filter((id) => !expectedIds.has(id)).length;
	return { oracle, missed, duplicates, unexpected, missedAt };
}

async function runDay(
	size: DaySize,
	practice: PracticeReads,
	scale: boolean,
	/** Issue 48: the practice triggers activated at 09:00 on the day (their activation day). */
	activationDay = false,
	/** Issue 55: the first week, day by day; every trigger activated at 09:00 on its first day. */
	week?: WeekPlan,
): Promise<{ team: TeamDayFigures; scale: ScaleDayFigures }> {
	const runStarted = performance.now();
	const activatedAtNine = activationDay || week !== undefined;
	const firstDay = week ? WEEK_START : DAY_START;
	const days = week?.days ?? 1;
	const setupAt = firstDay - 3 * 60 * MINUTE;
	const sweepDays = week?.sweepDays ?? Number(tierOptions(size).sweepDays ?? 7);
	const warmUpAt = scale && !week ? tierWarmUpPolls(sweepDays) : [];
	// The scale day sees the practice triggers in their ordinary state too: activated a day before the
	// setup, so their read quota (Max Reads a Day) is as a working day leaves it, not as an activation
	// the evening before leaves it (about 21 reads at 09:00, starved from about 13:40).
	const practiceActivatedAt = scale ? setupAt - 24 * 60 * MINUTE : setupAt;
	// The scale day starts at the Skill Tiers trigger's activation (the clock only moves forward).
	const clock = new ManualClock(Math.min(warmUpAt[0] ?? setupAt, practiceActivatedAt));
	const sim = await startSimulator({
		clock,
		dataSize: { members: size.members, pages: size.pages },
		jobTimings: { queuedMs: 30_000, processingMs: 270_000 },
	});
	const server = new WebhookServer();
	await server.start();
	const time = new VirtualTime(sim, clock.now());
	const restore = time.install();
	const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	const errors: Record<string, string[]> = {};
	const fail = (name: string, error: Error) => {
		if (!scale) throw error;
		(errors[name] ??= []).push(error.message);
	};
	try {
		const control = sim.control;
		const store = control.store;
		const open = Math.round((size.openAssignments * 2) / 3);
		// The members' history as of the setup (dated from it, as in the team day, whatever the clock
		// says now): the warm-up's polls see its sessions and calls of their days as the clock passes them.
		fillPractice(
			store,
			{
				sessions: 3000 * Math.max(1, Math.round(size.members / 200)),
				assignments: Math.max(1000, Math.round(size.openAssignments * 1.5)),
				open,
				pastDue: size.openAssignments - open,
			},
			setupAt,
		);
		const skills = scale ? growSkills(store, size, firstDay) : [];

		const poller = (name: string, parameters: INodeParameters) =>
			new PollHarness({
				parameters,
				credentials,
				workflow: { id: name.replace(/\W+/g, '-').toLowerCase(), name, timezone: ZONE },
			});
		const tiers = scale
			? poller('Skill Tiers', {
					triggerOn: 'skillTiers',
					skillTierEvents: ['tierChanged'],
					skillTierSkills: skills.map((sk) => sk.id),
					skillTierOptions: week ? { ...tierOptions(size), sweepDays } : tierOptions(size),
				})
			: undefined;
		// The Skill Tiers trigger's days before the day (uncounted, limits off): its activation and a poll
		// at 23:00 each day, one PollHarness keeping its static data throughout, as n8n would.
		const warmUp: SkillTiersWarmUp = {
			sweepDays,
			days: warmUpAt.length ? sweepDays + 1 : 0,
			activatedAt: new Date(warmUpAt[0] ?? setupAt).toISOString(),
			requests: 0,
			requestsByDay: [],
			tierEvents: 0,
		};
		// Every poll of the Skill Tiers trigger, for the oracle: its instant, the observations then, its items.
		const tierPolls: TierPoll[] = [];
		// A poll that sent no request and emitted nothing read nothing: not a read for the oracle.
		const pollTiers = async (trigger: PollHarness) => {
			const poll = { at: time.now(), observations: store.data.observations.length };
			const sentBefore = control.requests({}).length;
			const outcome = await trigger.poll();
			if (outcome.items.length || control.requests({}).length > sentBefore || !tierPolls.length)
				tierPolls.push({ ...poll, items: outcome.items.map((i) => i.json), emittedAt: time.now() });
			return outcome;
		};
		const warmUpPoll = async () => {
			if (!tiers) return;
			const before = control.requests({}).length;
			const startedAt = time.now();
			const outcome = await pollTiers(tiers);
			if (outcome.error) fail('Skill Tiers (before the day)', outcome.error);
			const spent = control.requests({}).length - before;
			warmUp.requests += spent;
			// By day from the activation's day (a read that takes several polls of a night is one day).
			const day = Math.round((startedAt - (warmUpAt[0] ?? 0)) / DAY_MS);
			while (warmUp.requestsByDay.length <= day) warmUp.requestsByDay.push(0);
			warmUp.requestsByDay[day] += spent;
			warmUp.tierEvents += outcome.items.length;
		};
		const coach = poller('Coach alert', {
			triggerOn: 'practice',
			practiceEvents: ['sessionScored'],
			practiceFilters: { scoreBelow: 60 },
			practiceOptions: practice.options,
		});
		const digest = poller('Past-due digest', {
			triggerOn: 'practice',
			practiceEvents: ['assignmentPastDue'],
			practiceOptions: practice.options,
		});
		// Issue 48: the workflow an org adds first, on the outcomes of assignments (scale day only).
		const outcomes = scale
			? poller('Outcomes', {
					triggerOn: 'practice',
					practiceEvents: ['assignmentCompleted', 'assignmentDidNotPass'],
					practiceOptions: practice.options,
				})
			: undefined;
		const practiceTriggers: Array<[string, PollHarness]> = [
			['Coach alert', coach],
			['Past-due digest', digest],
			...(outcomes ? [['Outcomes', outcomes] as [string, PollHarness]] : []),
		];
		// Before the setup (uncounted, limits off): the Skill Tiers trigger's days, and at the scale day the
		// practice triggers' activation a day before the setup and their polls at their Poll Times since.
		const earlyPractice =
			scale && !activatedAtNine
				? [
						practiceActivatedAt,
						...pollTimes(practice.pollTimes, ZONE, practiceActivatedAt + 1, setupAt),
					]
				: [];
		const early = [
			...warmUpAt.filter((t) => t < setupAt).map((t) => ({ t, tiers: true })),
			...earlyPractice.map((t) => ({ t, tiers: false })),
		].sort((a, b) => a.t - b.t);
		for (const { t, tiers: tiersPoll } of early) {
			time.advance(Math.max(0, t - time.now()));
			if (tiersPoll) {
				await warmUpPoll();
				continue;
			}
			for (const [name, trigger] of practiceTriggers) {
				const outcome = await trigger.poll();
				if (outcome.error) fail(`${name} (before the day)`, outcome.error);
			}
		}
		if (scale) {
			time.advance(setupAt - time.now());
			control.clearRequests();
		}

		// Setup before the day (uncounted): the playbooks synced once, with the limits off.
		const files = Array.from({ length: size.files }, (_, i) =>
			fileItem(i, `# Playbook ${i}\n\nHow we handle case ${i}.\n`),
		);
		// The sync as the docs advise: Within Folder, in an active (schedule-triggered) workflow, so the
		// node's memory of what it synced is kept in its static data between runs.
		const folder = store.data.folders[0];
		const syncForm = {
			...SYNC_FORM,
			options: { withinFolder: { __rl: true, mode: 'id', value: folder.id } },
		};
		const syncMemory: IDataObject = {};
		const syncRun = { staticData: syncMemory, mode: 'trigger' as const };
		const setup = await runNode({
			parameters: syncForm,
			credentials,
			input: files,
			...syncRun,
		});
		if (setup.error) throw setup.error;

		// Open assignments fall past due through each day (10 a day in the team day); nobody practises them.
		const openRows = store.data.assignments.filter(
			(a) => a.status === 'not_started' || a.status === 'in_progress',
		);
		const dueCount = Math.max(10, Math.round(size.openAssignments / 30));
		const dueAll = openRows.slice(0, dueCount * days);
		// From 01:30 every 2 hours as in the team day, closer when more fall due.
		const dueGap = Math.min(120, Math.floor((22 * 60) / dueCount));
		dueAll.forEach(
			(a, i) =>
				(a.dueDate =
					firstDay + Math.floor(i / dueCount) * DAY_MS + MINUTE * (90 + (i % dueCount) * dueGap)),
		);
		const dueIds = new Set(dueAll.map((a) => a.id));
		const busyUsers = new Set(dueAll.map((a) => a.userId));
		const practising = store.data.users
			.filter((u) => u.member && !busyUsers.has(u.id))
			.slice(0, scale ? Math.round(size.members * 0.3) : 60);
		const scenarios = store.data.scenarios.filter((sc) => !sc.archived);
		// Assignments the practising members were given (a quarter of the scale day's sessions finish one).
		const practisingIds = new Set(practising.map((u) => u.id));
		const assigned = openRows.filter((a) => practisingIds.has(a.userId) && !dueIds.has(a.id));

		const watcher = poller('Knowledge Hub watcher', {
			events: ['pageCreated', 'pageUpdated', 'pagePublished', 'sourceReady'],
			options: { maxReadsPerDay: DEFAULT_MAX_READS },
		});
		const jobTrigger = new TriggerEndpoint(server, {
			nodeType: 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger',
			parameters: {},
			credentials: { workspacePracticeApi: credentials },
		});
		const pollers: Array<[string, PollHarness]> = [
			['Knowledge Hub watcher', watcher],
			...practiceTriggers,
			...(tiers ? [['Skill Tiers', tiers] as [string, PollHarness]] : []),
		];
		for (const [name, trigger] of pollers) {
			// The Skill Tiers trigger was activated days ago (the warm-up; in the week, at 09:00 on its
			// first day), the practice triggers a day ago (or at 09:00 on the activation day).
			if (trigger === tiers) continue;
			if (scale && practiceTriggers.some(([, p]) => p === trigger)) continue;
			if (activatedAtNine && practiceTriggers.some(([, p]) => p === trigger)) continue;
			const activation = await trigger.poll();
			if (activation.error) fail(`${name} (activation)`, activation.error);
		}
		const staticBytes: Record<string, number> = {};
		const measureStatic = () => {
			for (const [name, trigger] of pollers)
				staticBytes[name] = Math.max(
					staticBytes[name] ?? 0,
					Buffer.byteLength(JSON.stringify(trigger.stored)),
				);
		};
		measureStatic();

		// n8n polls from the activation on, as the Poll Times say: the hours before the day, uncounted
		// (a quota that no poll spent would otherwise be spent at once when the day starts).
		const beforeDay = pollTimes(practice.pollTimes, ZONE, time.now() + 1, firstDay);
		for (let t = time.now() + MINUTE; t < firstDay; t += MINUTE) {
			time.advance(t - time.now());
			const polls = [watcher];
			for (const at of beforeDay)
				if (at >= t && at < t + MINUTE && !activatedAtNine)
					polls.push(...practiceTriggers.map(([, p]) => p));
			for (const trigger of polls) {
				const outcome = await trigger.poll();
				if (outcome.error) throw outcome.error;
			}
			// The Skill Tiers trigger's 23:00 poll on the eve of the day: the last of its warm-up.
			for (const at of warmUpAt) if (at >= t && at < t + MINUTE) await warmUpPoll();
		}

		// The day: limits on (fresh windows), the request log from here on.
		time.advance(firstDay - time.now());
		control.setRateLimits(true);
		control.clearRequests();
		const logStart = control.assignmentLog().length;
		// The request log's length, without copying it at every poll.
		let counted = 0;
		const requestCount = () => {
			const all = control.requests({});
			counted = all.length;
			return counted;
		};

		let perWorkflow: Record<string, number> = {};
		const pathCounts: Record<string, number> = {};
		// The instants each workflow read (a poll that sent a request): the oracle's "next read".
		const readsOf: Record<string, number[]> = {};
		const spend = async (name: string, work: () => Promise<void>) => {
			const before = requestCount();
			const started = time.now();
			await work();
			const after = requestCount();
			if (after > before) (readsOf[name] ??= []).push(started);
			perWorkflow[name] = (perWorkflow[name] ?? 0) + after - before;
			if (process.env.SCALE_DAY_PATHS)
				for (const r of control.requests({}).slice(before, after)) {
					// A reading as of an earlier instant (a tier "then"), told apart from one as of now.
					const then =
						Date.parse(r.query.end_date ?? r.at) < Date.parse(r.at) - MINUTE
							? ' (as of before)'
							: '';
					const key = `${name} ${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, ':id')} ${Object.keys(r.query).sort().join(',')}${then}`;
					pathCounts[key] = (pathCounts[key] ?? 0) + 1;
				}
		};

		// The world's plan.
		// Sessions at seeded random minutes of the working day (a fixed sequence: the figure repeats).
		let seed = 20260318;
		const random = () => {
			seed = (seed * 48271) % 2147483647;
			return seed / 2147483647;
		};
		const pending: Array<{ id: string; at: number; score: number }> = [];
		const scoredAt = new Map<string, number>();
		const coachDelaysWorking: Array<{ scored: number; delay: number }> = [];
		const digestIds: string[] = [];
		const digestDelays: number[] = [];
		const digestSent = new Map<string, number[]>();
		const digestOpenReads: number[] = [];
		const outcomeSent = new Map<string, number[]>();
		const sent: Record<'watcher' | 'coach' | 'callbacks' | 'byPolling', Sent[]> = {
			watcher: [],
			coach: [],
			callbacks: [],
			byPolling: [],
		};
		let tierEvents = 0;
		let tierDigestRows = 0;
		let toolAnswers = 0;
		let sessionNo = 0;
		let startedSeen = 0;
		// Issue 54: assignments given during the days, and those given but not practised yet.
		const givenToday = new Set<string>();
		const givenQueue: Array<{ userId: string; scenarioId: string }> = [];
		const byDay: WeekDayFigures[] = [];
		// The 429 answers of every day by path, and the first of them (when, what).
		const limitedPaths: Record<string, number> = {};
		const limitedAt: string[] = [];
		let toolsPlanned = 0;

		const jobTriggerRuns = async () => {
			await control.waitForCallbacks();
			const outputs = jobTrigger.outputs();
			while (startedSeen < outputs.length) {
				const json = outputs[startedSeen++][0]?.json ?? {};
				const job = (json.job ?? json) as IDataObject;
				sent.callbacks.push({ key: String(job.id ?? ''), at: time.now() });
			}
		};
		/** Minute of the day → how many entries of the Poll Times fire in it. */
		const fires = (times: TriggerTime[], dayStart: number) => {
			const byMinute = new Map<number, number>();
			for (const at of pollTimes(times, ZONE, dayStart, dayStart + DAY_MS)) {
				const minute = Math.floor((at - dayStart) / MINUTE);
				byMinute.set(minute, (byMinute.get(minute) ?? 0) + 1);
			}
			return byMinute;
		};

		for (let d = 0; d < days; d++) {
			const dayStart = firstDay + d * DAY_MS;
			const at = (hour: number, minute = 0) => dayStart + (hour * 60 + minute) * MINUTE;
			const workStart = at(9);
			const weekday = new Date(at(12)).getUTCDay();
			// Sessions, calls, jobs and tool calls in working hours, Monday to Friday.
			const working = weekday >= 1 && weekday <= 5;
			const workMinutes = (at(17) - workStart) / MINUTE;
			const sessionsAt = Array.from(
				{ length: working ? size.scoredSessions : 0 },
				() => workStart + Math.floor(random() * workMinutes) * MINUTE,
			).sort((a, b) => a - b);
			const callsAt = Array.from(
				{ length: working ? size.calls : 0 },
				() => workStart + Math.floor(random() * workMinutes) * MINUTE,
			).sort((a, b) => a - b);
			// Every 22 minutes as in the team day, closer when more jobs must fit in working hours.
			const jobGap = Math.min(22, Math.floor((workMinutes - 20) / size.jobs));
			const jobsAt = Array.from(
				{ length: working ? size.jobs : 0 },
				(_, i) => workStart + 10 * MINUTE + i * jobGap * MINUTE,
			);
			const toolsAt = Array.from(
				{ length: working ? 60 : 0 },
				(_, i) => workStart + 3 * MINUTE + i * 8 * MINUTE,
			);
			toolsPlanned += toolsAt.length;
			// Issue 54: an eighth of the sessions' count given between 08:00 and 11:00 (the scale day).
			const givesAt = Array.from(
				{ length: scale && working ? Math.round(size.scoredSessions / 8) : 0 },
				() => at(8) + Math.floor(random() * 180) * MINUTE,
			).sort((a, b) => a - b);
			// The weekly tier digest runs on Wednesdays.
			let tierDigestDone = !scale || weekday !== 3;
			let synced = false;
			let sessionIndex = 0;
			let callIndex = 0;
			let jobIndex = 0;
			let toolIndex = 0;
			let giveIndex = 0;
			perWorkflow = {};
			const errorsBefore = Object.values(errors).reduce((n, list) => n + list.length, 0);
			const practicePolls = fires(practice.pollTimes, dayStart);
			const tierPollMinutes = fires(TIER_READS.pollTimes, dayStart);
			for (let minute = 0; minute < 24 * 60; minute++) {
				const t = dayStart + minute * MINUTE;
				if (time.now() < t) {
					const before = requestCount();
					time.advance(t - time.now());
					await jobTriggerRuns();
					perWorkflow['Job Trigger'] = (perWorkflow['Job Trigger'] ?? 0) + requestCount() - before;
				}
				// The practice triggers' activation at 09:00, before the minute's sessions (counted in the day);
				// in the week, the Skill Tiers trigger's too (its first read: the baseline).
				if (activatedAtNine && d === 0 && t === workStart) {
					for (const [name, trigger] of practiceTriggers)
						await spend(name, async () => {
							const outcome = await trigger.poll();
							if (outcome.error) fail(`${name} (activation)`, outcome.error);
						});
					if (week && tiers)
						await spend('Skill Tiers', async () => {
							const outcome = await pollTiers(tiers);
							if (outcome.error) fail('Skill Tiers (activation)', outcome.error);
						});
				}
				const now = time.now();
				// Issue 54: managers give assignments in the morning; a share of the day's sessions practise them.
				while (giveIndex < givesAt.length && givesAt[giveIndex] <= now) {
					const k = giveIndex++ + d * givesAt.length;
					const member = practising[(k * 11) % practising.length];
					const given = control.addAssignment({
						userEmail: member.email,
						scenario: scenarios[(k * 7) % scenarios.length].id,
						dueDate: dayStart + 7 * DAY_MS,
					});
					givenToday.add(given.id);
					givenQueue.push({ userId: member.id, scenarioId: String(given.scenario.id) });
				}
				// Sessions practised and scored.
				while (sessionIndex < sessionsAt.length && sessionsAt[sessionIndex] <= now) {
					sessionIndex++;
					const n = sessionNo++;
					const score = 30 + ((n * 37) % 65);
					let user = practising[n % practising.length];
					let scenario = scenarios[0].id;
					if (scale) {
						// A quarter on an assignment of the member's, the rest spread over the scenarios.
						// An eighth on one given this morning (issue 54), when one waits.
						const target =
							(n % 8 === 4 ? givenQueue.shift() : undefined) ??
							(n % 4 === 0 && assigned.length ? assigned[(n / 4) % assigned.length] : undefined);
						if (target) {
							user = store.userById(target.userId) ?? user;
							scenario = target.scenarioId;
						} else scenario = scenarios[Math.floor(random() * scenarios.length)].id;
					}
					if (n % 3 === 0) {
						const s = control.addSession({ userEmail: user.email, scenario });
						pending.push({ id: s.id, at: now + (10 + (n % 31)) * MINUTE, score });
					} else {
						const before = store.data.observations.length;
						const s = control.addSession({ userEmail: user.email, scenario, score });
						scoredAt.set(s.id, now);
						if (scale) observeSession(store, before, user.id, scenario, score, now);
					}
				}
				for (const p of pending.filter((x) => x.at <= now)) {
					const before = store.data.observations.length;
					const s = control.scoreSession(p.id, p.score);
					scoredAt.set(p.id, now);
					pending.splice(pending.indexOf(p), 1);
					if (scale)
						observeSession(store, before, String(s.user.id), String(s.scenario.id), p.score, now);
				}
				while (callIndex < callsAt.length && callsAt[callIndex] <= now) {
					const n = callIndex++ + d * callsAt.length;
					const user = practising[(n * 7) % practising.length];
					control.addObservation({
						userEmail: user.email,
						skillId: skills[n % skills.length].id,
						score: 40 + ((n * 53) % 60),
						at: now,
						kind: 'call',
					});
				}

				// Workflows started by a schedule or a person.
				if (!synced && now >= at(2)) {
					synced = true;
					const changed = [...files];
					const step = Math.floor(size.files / CHANGED);
					for (let i = 0; i < CHANGED; i++)
						changed[i * step] = fileItem(i * step, `# Playbook ${i * step}\n\nRevised tonight.\n`);
					await spend('Nightly sync', async () => {
						const run = await runNode({
							parameters: syncForm,
							credentials,
							input: changed,
							...syncRun,
							workflow: { id: 'nightly-sync', name: 'Nightly sync' },
						});
						if (run.error) fail('Nightly sync', run.error);
					});
				}
				if (!tierDigestDone && now >= at(7)) {
					tierDigestDone = true;
					await spend('Weekly tier digest', async () => {
						const run = await runNode({
							parameters: { resource: 'skill', operation: 'getTierChanges', skillScope: 'all' },
							credentials,
							workflow: { id: 'weekly-tier-digest', name: 'Weekly tier digest' },
						});
						if (run.error) fail('Weekly tier digest', run.error);
						else tierDigestRows = run.items.length;
					});
				}
				while (jobIndex < jobsAt.length && jobsAt[jobIndex] <= now) {
					const n = jobIndex++ + d * jobsAt.length;
					const byPolling = n % 4 === 3;
					await spend('Scenario jobs', async () => {
						const run = await runNode({
							parameters: {
								resource: 'scenarioJob',
								operation: 'create',
								userEmail: practising[n % practising.length].email,
								prompt: `Team day job ${n}: a renewal call with a hesitant buyer`,
								waitForCompletion: byPolling ? 'poll' : 'off',
								...(byPolling ? {} : { additionalFields: { callbackUrl: jobTrigger.url } }),
							},
							credentials,
							workflow: { id: 'scenario-jobs', name: 'Scenario jobs' },
						});
						if (run.error) return fail('Scenario jobs', run.error);
						const job = run.items[0]?.json ?? {};
						if (byPolling) sent.byPolling.push({ key: String(job.id), at: time.now() });
					});
				}
				while (toolIndex < toolsAt.length && toolsAt[toolIndex] <= now) {
					toolIndex++;
					await spend('Chat agent', async () => {
						const { answers } = await runToolCalls({
							parameters: { resource: 'skill', operation: 'getAll', limit: 10 },
							calls: [{}],
							credentials,
						});
						if (answers[0] && !('error' in answers[0])) toolAnswers++;
					});
				}

				// n8n's poll tick.
				const polled = time.now();
				await spend('Knowledge Hub watcher', async () => {
					const outcome = await watcher.poll();
					if (outcome.error) return fail('Knowledge Hub watcher', outcome.error);
					for (const { json } of outcome.items) {
						sent.watcher.push({ key: oracle.knowledgeHubKey(json), at: polled });
					}
				});
				// The practice triggers poll when their Poll Times fire in this minute (two entries: twice).
				// Not active yet before 09:00 on the activation day; at 09:00 the activation read was the poll.
				const practiceFires =
					activatedAtNine && d === 0 && t <= workStart ? 0 : (practicePolls.get(minute) ?? 0);
				for (let fired = 0; fired < practiceFires; fired++) {
					await spend('Coach alert', async () => {
						const outcome = await coach.poll();
						if (outcome.error) return fail('Coach alert', outcome.error);
						for (const { json } of outcome.items) {
							const id = String((json.session as IDataObject).id);
							sent.coach.push({ key: id, at: polled });
							const scored = scoredAt.get(id) ?? polled;
							const delay = (polled - scored) / MINUTE;
							if (inWorkingHours(scored)) coachDelaysWorking.push({ scored, delay });
						}
					});
					const digestBefore = requestCount();
					await spend('Past-due digest', async () => {
						const outcome = await digest.poll();
						if (outcome.error) return fail('Past-due digest', outcome.error);
						for (const { json } of outcome.items) {
							const row = json.assignment as IDataObject;
							digestIds.push(String(row.id));
							const due = dueAll.find((a) => a.id === row.id)?.dueDate ?? polled;
							digestDelays.push((polled - due) / MINUTE);
							const sent = digestSent.get(String(row.id)) ?? [];
							sent.push(polled);
							digestSent.set(String(row.id), sent);
						}
					});
					if (outcomes)
						await spend('Outcomes', async () => {
							const outcome = await outcomes.poll();
							if (outcome.error) return fail('Outcomes', outcome.error);
							for (const { json } of outcome.items) {
								const key = `${String((json.assignment as IDataObject).id)}|${String(json.event)}`;
								outcomeSent.set(key, [...(outcomeSent.get(key) ?? []), polled]);
							}
						});
					// A read of the open assignments: a request of this poll listing past-due ones.
					if (
						counted > digestBefore &&
						control
							.requests({})
							.slice(digestBefore)
							.some(
								(r) =>
									r.path === '/scenarios/assignments' &&
									(r.query.status ?? '').includes('past_due'),
							)
					)
						digestOpenReads.push(polled);
				}
				// At its Poll Times (TIER_READS); not before its activation in the week.
				const tierFires =
					week && d === 0 && t <= workStart ? 0 : (tierPollMinutes.get(minute) ?? 0);
				for (let fired = 0; tiers && fired < tierFires; fired++)
					await spend('Skill Tiers', async () => {
						const outcome = await pollTiers(tiers);
						if (outcome.error) return fail('Skill Tiers', outcome.error);
						tierEvents += outcome.items.length;
					});
				if (minute % 60 === 59) {
					measureStatic();
					// SCALE_DAY_PROGRESS=1: a line an hour (requests so far, machine seconds), to see where a day goes.
					if (process.env.SCALE_DAY_PROGRESS)
						console.error(
							`${size.name} day ${d + 1} ${(minute + 1) / 60}:00 ${requestCount()} requests ${JSON.stringify(perWorkflow)} ${round((performance.now() - runStarted) / 1000)} s`,
						);
				}
			}

			// The last callbacks of the day.
			await jobTriggerRuns();
			measureStatic();
			const dayRequests = control.requests({});
			const refused = dayRequests.filter((r) => r.status === 429);
			for (const r of refused) {
				const path = r.path.replace(/[0-9a-f-]{36}/g, ':id');
				limitedPaths[path] = (limitedPaths[path] ?? 0) + 1;
				if (limitedAt.length < 20) limitedAt.push(`${r.at} ${r.method} ${path}`);
			}
			byDay.push({
				date: new Date(at(12)).toISOString().slice(0, 10),
				requests: control.rateLimitUsage().day,
				rateLimitedAnswers: refused.length,
				requestsPerWorkflow: perWorkflow,
				errors: Object.values(errors).reduce((n, list) => n + list.length, 0) - errorsBefore,
			});
			if (d < days - 1) {
				if (process.env.SCALE_DAY_PROGRESS)
					console.error(`${size.name} day ${d + 1}: ${JSON.stringify(byDay[d])}`);
				// The next day's requests alone in the log (the day's usage is a rolling 24 hours).
				control.clearRequests();
				counted = 0;
			}
		}
		if (process.env.SCALE_DAY_PATHS) console.error(JSON.stringify(pathCounts, null, 1));

		const usage = byDay[byDay.length - 1];
		const workStart = firstDay + 9 * 60 * MINUTE;
		// On the activation day, what changed before the 09:00 activation is history (never sent).
		const dayLog = control
			.assignmentLog()
			.slice(logStart)
			.filter((c) => !activatedAtNine || c.at >= workStart);
		const judged = judgePastDue(dayLog, digestOpenReads, digestSent);
		const outcomeFamily = oracle.judgeOutcomes(dayLog, outcomeSent, readsOf['Outcomes'] ?? []);
		// Issue 48: every family per ID against the simulator's log (dayOracle.ts).
		const dayWindow = { from: firstDay, to: time.now() };
		const practiceWindow = { from: activatedAtNine ? workStart : firstDay, to: time.now() };
		const jobs = oracle.judgeJobs(store, dayWindow, sent.callbacks, sent.byPolling);
		const tierDay = tierPolls.findIndex((p) => p.at >= firstDay);
		const tierJudged = (polls: TierPoll[], from: number) => {
			const { practised, bySweep } = oracle.judgeTierChanges(
				store,
				polls,
				skills.map((sk) => sk.id),
				sweepDays,
				from,
			);
			return [practised, bySweep];
		};
		const [tierChanged, tierChangedBySweep] = tierJudged(
			tierPolls,
			tierDay < 0 ? tierPolls.length : Math.max(1, tierDay),
		);
		const [tierBeforeDay, tierBeforeDayBySweep] = tierJudged(
			tierPolls.filter((p) => p.at < firstDay),
			1,
		);
		const tierFamilies: Record<string, FamilyFigures> = tiers
			? week
				? { tierChanged, tierChangedBySweep }
				: { tierChanged, tierChangedBySweep, tierBeforeDay, tierBeforeDayBySweep }
			: {};
		const families: Record<string, FamilyFigures> = {
			...(outcomes ? { assignmentOutcomes: outcomeFamily } : {}),
			knowledgeHub: oracle.judgeKnowledgeHub(
				store,
				dayWindow,
				readsOf['Knowledge Hub watcher'] ?? [],
				sent.watcher,
			),
			sessionScored: oracle.judgeSessionScored(
				store,
				practiceWindow,
				readsOf['Coach alert'] ?? [],
				60,
				sent.coach,
			),
			...tierFamilies,
			assignmentPastDue: scale
				? {
						...family(digestDelays, judged.oracle.expected, digestIds),
						missed: judged.missed,
						duplicates: judged.duplicates,
						unexpected: judged.unexpected,
						...(judged.missedAt.length ? { missedAt: judged.missedAt } : {}),
					}
				: family(digestDelays, dueAll.filter((a) => a.status === 'past_due').length, digestIds),
			...jobs,
			toolCalls: family(
				[],
				toolsPlanned,
				Array.from({ length: toolAnswers }, (_, i) => String(i)),
			),
		};
		// Issue 55: each day's missed events (by when they changed), then the times dropped.
		const missedByDay = byDay.map(() => 0);
		for (const f of Object.values(families)) {
			for (const t of f.missedAt ?? []) {
				const d = Math.floor((t - firstDay) / DAY_MS);
				if (d >= 0 && d < days) missedByDay[d]++;
			}
			delete f.missedAt;
		}
		const missedEvents = Object.values(families).reduce((n, f) => n + f.missed, 0);
		const duplicateEvents = Object.values(families).reduce((n, f) => n + f.duplicates, 0);
		const medianOf = (delays: number[]) => {
			const sorted = [...delays].sort((a, b) => a - b);
			return sorted.length ? round(sorted[Math.floor((sorted.length - 1) / 2)]) : null;
		};
		if (process.env.TEAM_DAY_DEBUG) console.error(JSON.stringify(coachDelaysWorking));
		const median = medianOf(coachDelaysWorking.map((c) => c.delay));
		const coachMedianByDay = byDay.map((_, d) =>
			medianOf(
				coachDelaysWorking
					.filter((c) => Math.floor((c.scored - firstDay) / DAY_MS) === d)
					.map((c) => c.delay),
			),
		);
		const rateLimitedAnswers = byDay.reduce((n, day) => n + day.rateLimitedAnswers, 0);
		// Issue 54: outcomes of assignments given during the day, in working hours from change to event.
		const sameDay = sameDayOutcomes(
			dayLog.filter((c) => givenToday.has(c.id)),
			givenToday.size,
			outcomeSent,
		);
		// Issue 55: what the past-due digest sent on its first day (activated at 09:00).
		const firstEnd = firstDay + DAY_MS;
		const pastDueFirstDay = activatedAtNine
			? {
					pastDueAfterActivation: dayLog.filter((c) => c.to === 'past_due' && c.at < firstEnd)
						.length,
					sentThatDay: [...digestSent.values()].filter((times) => times.some((t) => t < firstEnd))
						.length,
				}
			: undefined;
		const team: TeamDayFigures = {
			requestsPerDay: usage.requests,
			goalRequestsPerDay: 350,
			requestsPerWorkflow: perWorkflow,
			rateLimitedAnswers,
			missedEvents,
			duplicateEvents,
			practiceMedianDelayMinutesWorkingHours: median,
			goalPracticeMedianDelayMinutes: 5,
			families,
			practiceSchedule: practice.label,
			timeZone: ZONE,
		};
		return {
			team,
			scale: {
				size,
				requestsPerDay: usage.requests,
				goalRequestsPerDay: GOALS[size.name] ?? 900,
				requestsPerWorkflow: perWorkflow,
				rateLimitedAnswers,
				rateLimitedPaths: limitedPaths,
				...(limitedAt.length ? { rateLimitedFirst: limitedAt } : {}),
				missedEvents,
				duplicateEvents,
				practiceMedianDelayMinutesWorkingHours: median,
				staticDataBytesMax: Math.max(0, ...Object.values(staticBytes)),
				staticDataBytesPerWorkflow: {
					...staticBytes,
					'Nightly sync (not a trigger)': Buffer.byteLength(JSON.stringify(syncMemory)),
				},
				sharedReadsSaved: 0,
				errors: Object.fromEntries(
					Object.entries(errors).map(([name, list]) => [
						name,
						[...new Set(list)].map((m) => `${m} (×${list.filter((x) => x === m).length})`),
					]),
				),
				tierEvents,
				tierDigestRows,
				skillTiersWarmUp: warmUp,
				pastDueOracle: judged.oracle,
				families,
				sameDayOutcomes: sameDay,
				...(pastDueFirstDay ? { pastDueFirstDay } : {}),
				...(week ? { week: { sweepDays, byDay, missedByDay, coachMedianByDay } } : {}),
				practiceSchedule: practice.label,
				timeZone: ZONE,
				runSeconds: round((performance.now() - runStarted) / 1000),
			},
		};
	} finally {
		restore();
		await server.close();
		await sim.close();
	}
}

/**
 * The workspace's skills grown to the size's count, each scenario evaluating two of them, and every
 * member practised in every skill (three observations over the past 60 days: a tier each), so that a
 * proficiency read lists every member as issue 40 sizes it.
 */
function growSkills(store: RunningSimulator['control']['store'], size: DaySize, firstDay: number) {
	const skills = store.data.skills;
	for (let i = skills.length; i < size.skills; i++) {
		const name = `Generated Skill ${String(i + 1).padStart(3, '0')}`;
		skills.push({
			id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
			name,
			slug: name.toLowerCase().replace(/\W+/g, '-'),
			description: 'Generated for the scale day.',
			createdAt: firstDay - 90 * 24 * 60 * MINUTE,
		});
	}
	skills.splice(size.skills);
	const scenarios = store.data.scenarios;
	scenarios.forEach(
		(sc, i) =>
			(sc.skillIds = [skills[(2 * i) % skills.length].id, skills[(2 * i + 1) % skills.length].id]),
	);
	let n = 0;
	const members = store.data.users.filter((u) => u.member);
	for (const skill of skills)
		for (const user of members)
			for (let k = 0; k < 3; k++) {
				n++;
				store.data.observations.push({
					userId: user.id,
					skillId: skill.id,
					score: 35 + ((n * 29) % 60),
					at: firstDay - (2 + ((n * 13) % 58)) * 24 * 60 * MINUTE,
					kind: 'call',
				});
			}
	return skills;
}

/**
 * A scored session is an observation of every skill its scenario evaluates (the spec); added here
 * unless the simulator already added observations when the session was scored (`before`: the count
 * of observations before it was).
 */
function observeSession(
	store: RunningSimulator['control']['store'],
	before: number,
	userId: string,
	scenarioId: string,
	score: number,
	now: number,
): void {
	const observations = store.data.observations;
	if (observations.length > before) return;
	const scenario = store.data.scenarios.find((sc) => sc.id === scenarioId);
	for (const skillId of scenario?.skillIds ?? [])
		observations.push({ userId, skillId, score, at: now, kind: 'session' });
}
