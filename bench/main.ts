/**
 * The bench proper (run through `npm run bench`, see run.ts): items 1 to 5 of the benchmark issue,
 * each against its baseline in the same run, then results.json, results.md and a table on stdout.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

import { config } from './config';
import { consoleTable, markdownReport } from './report';
import type { BenchResults, JobWaitFigures } from './results';
import { benchDemoTime } from './scenarios/demoTime';
import { benchJobList } from './scenarios/jobList';
import { benchJobWait } from './scenarios/jobWait';
import {
	benchPageSync,
	benchPageSync500,
	benchSourceListWait,
	benchSourceWait,
} from './scenarios/knowledgeHub';
import { benchPackage } from './scenarios/pkg';
import { benchPerItem } from './scenarios/perItem';
import { benchRateLimited } from './scenarios/rateLimited';
import { benchReturnAll } from './scenarios/returnAll';
import { benchPracticeAtScale } from './scenarios/practiceAtScale';
import { benchPracticeQuota } from './scenarios/practiceQuota';
import { benchTriggerQuota } from './scenarios/triggerQuota';
import {
	advisedSweepDays,
	benchBusyDay,
	benchFirstWeek,
	benchScaleDay,
	benchTeamDay,
	GOALS,
	PRACTICE_EVENLY,
	SIZES,
	type FirstWeekFigures,
} from './scenarios/teamDay';
import { round } from './stats';
import { listTarget } from './target';

/** The repository root, whether this runs from the sources or from bench/.tmp/build. */
function repoRoot(): string {
	let dir = __dirname;
	while (!dir.endsWith('.tmp') && dir !== resolve(dir, '..')) dir = resolve(dir, '..');
	return dir.endsWith('.tmp') ? resolve(dir, '..', '..') : resolve(__dirname, '..');
}

function step(text: string): void {
	console.log(`… ${text}`);
}

/** Runs item 1 once in a child process (async: the simulator in this process must keep answering). */
function peakMemory(
	endpoint: { baseUrl: string; apiKey: string },
	resource: string,
	operation: string,
): Promise<{ peakRssMb: number; engineRssMb: number }> {
	const args = [
		join(__dirname, 'memoryProbe.js'),
		endpoint.baseUrl,
		endpoint.apiKey,
		resource,
		operation,
	];
	return new Promise((resolvePeak, reject) => {
		execFile(
			process.execPath,
			args,
			{ env: process.env, maxBuffer: 1024 * 1024 },
			(error, stdout, stderr) => {
				if (error) {
					reject(new Error(`Memory probe failed: ${stderr.trim() || error.message}`));
					return;
				}
				const out = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
					rssBeforeMb: number;
					peakRssMb: number;
				};
				resolvePeak({ peakRssMb: round(out.peakRssMb, 1), engineRssMb: round(out.rssBeforeMb, 1) });
			},
		);
	});
}

const TRIGGER_NOTE =
	"Item 6 plays a day of n8n's default schedule (a poll a minute) on the simulator's movable clock, at the trigger's default settings (Max Reads a Day 12: a read every 2 hours; 48 before issue 48), every event chosen; the counts do not depend on the machine. `npm run bench -- --trigger-only` measures it alone.";

/** `npm run bench -- --trigger-only`: item 6 alone (request counts, machine-independent), merged in. */
async function triggerOnly(root: string): Promise<void> {
	step('6. Knowledge Hub trigger: requests a day at default settings');
	const file = join(root, 'bench', 'results.json');
	const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
	results.trigger = {
		...(await benchTriggerQuota()),
		practice: { ...(await benchPracticeQuota()), atScale: results.trigger?.practice?.atScale },
	};
	results.notes = [...results.notes.filter((note) => !note.startsWith('Item 6')), TRIGGER_NOTE];
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(join(root, 'bench', 'results.md'), markdownReport(results));
	console.log(consoleTable(results));
}

/** `npm run bench -- --practice-scale-only`: item 6b's day at 2,000 members (issue 48), merged in. */
async function practiceScaleOnly(root: string): Promise<void> {
	step('6b. Practice Results trigger at 2,000 members, judged per assignment ID');
	const file = join(root, 'bench', 'results.json');
	const atScale = await benchPracticeAtScale();
	step(
		`   ${atScale.sent} of ${atScale.loggedChanges} logged assignment changes sent (${atScale.missed} missed ${JSON.stringify(atScale.missedByChange)}, ${atScale.duplicates} duplicates, ${atScale.unexpected} unexpected), ${atScale.requests} requests, static data ${atScale.staticDataBytes} B`,
	);
	const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
	if (results.trigger?.practice) results.trigger.practice.atScale = atScale;
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(join(root, 'bench', 'results.md'), markdownReport(results));
}

const JOB_LIST_NOTE =
	"Item 3b runs 50 five-minute jobs in one execution of Scenario Job → Create (By Polling) under the deployed minute limits (60 requests, 10 creations), scaled in time like item 3 (× jobTimeScale; Date.now in the bench process is scaled too, as the list wait plans the next read of each job with it); bound = the creation time the limit allows (4 minutes for 50) + one job (5 minutes). `npm run bench -- --job-list-only` measures it alone; `--sequential` adds the same 50 items one execution after another (today's behaviour before, about 4.5 minutes of real time).";

/** `npm run bench -- --job-list-only`: item 3b alone, merged into results.json. */
async function jobListOnly(root: string): Promise<void> {
	step(`3b. 50 jobs By Polling (time × ${config.jobTimeScale})`);
	const file = join(root, 'bench', 'results.json');
	const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
	results.jobWait.list50 = await benchJobList(process.argv.includes('--sequential'));
	results.notes = [...results.notes.filter((note) => !note.startsWith('Item 3b')), JOB_LIST_NOTE];
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(join(root, 'bench', 'results.md'), markdownReport(results));
	console.log(consoleTable(results));
}

const JOB_WAIT_NOTE = () =>
	`Item 3 is scaled in time: a ${config.jobDurationMs / 60_000}-minute job (15 s queued) on a simulator clock ${config.jobTimeScale}× faster than real time; Date.now and every timer in the bench process (the node's poll pauses and its plan of each next read, the 5 s loop) run faster by the same factor. Calls include the create; the three modes run side by side. \`npm run bench -- --job-wait-only\` measures it alone.`;

/** `npm run bench -- --job-wait-only`: item 3 alone (one job each way), merged into results.json. */
async function jobWaitOnly(root: string): Promise<void> {
	step(`3. Job wait (time × ${config.jobTimeScale})`);
	const file = join(root, 'bench', 'results.json');
	const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
	results.jobWait = { ...(await benchJobWait()), list50: results.jobWait.list50 };
	results.notes = results.notes.map((note) =>
		note.startsWith('Item 3 is scaled') ? JOB_WAIT_NOTE() : note,
	);
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(join(root, 'bench', 'results.md'), markdownReport(results));
	console.log(consoleTable(results));
}

const KNOWLEDGE_HUB_NOTE =
	'Item 7: sourceWait is Create From URL with Wait Until Ready (By Polling, defaults) on a source whose extraction takes one minute (10 s pending, 50 s processing), calls counted with the create, in virtual time (each pause of the node moves the simulator’s clock instead of passing); pageSync runs Knowledge Hub Page → Create or Update over 20 Markdown files three times (first run, unchanged rerun, one file changed) with the deployed limits on, also in virtual time. Issue 32’s figures: sourceWait.requestsFor15Sources (15 items in one run, created then waited on together), pageSync.requestsOnUnchangedRerun500 / …Manual / requestsOneChanged500 (500 files into one folder, Within Folder set; active = the node’s static data kept between runs in mode trigger, manual = none). Request counts, machine-independent. `npm run bench -- --knowledge-hub-only` measures it alone.';

/** `npm run bench -- --knowledge-hub-only`: item 7 alone (request counts), merged into results.json. */
async function knowledgeHubOnly(root: string): Promise<void> {
	const file = join(root, 'bench', 'results.json');
	const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
	await knowledgeHubItem(results);
	results.notes = [
		...results.notes.filter((note) => !note.startsWith('Item 7')),
		KNOWLEDGE_HUB_NOTE,
	];
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(join(root, 'bench', 'results.md'), markdownReport(results));
	console.log(consoleTable(results));
}

async function knowledgeHubItem(results: BenchResults): Promise<void> {
	step('7. Knowledge Hub: a one-minute source waited for (virtual time); 20 pages synced');
	results.sourceWait = {
		...(await benchSourceWait()),
		requestsFor15Sources: await benchSourceListWait(15),
	};
	results.pageSync = { ...(await benchPageSync()), ...(await benchPageSync500()) };
	step(
		`   ${results.sourceWait.callsPerSource} calls per source; unchanged rerun: ${results.pageSync.writesOnUnchangedRerun} writes`,
	);
}

const TEAM_DAY_NOTE =
	"Item 8: a team's ordinary weekday on one workspace with the deployed limits on (60 a minute, 10 creations a minute, 1,000 a day), in virtual time (the simulator's clock and Date.now move minute by minute; node pauses move them instead of passing): the Knowledge Hub watcher, two Practice Results triggers (Session Scored below 60, Assignment Past Due), a nightly sync of 300 files with 5 changed, 20 scenario jobs (15 through the Job Trigger, 5 By Polling), 60 tool calls and 150 scored sessions in working hours (09:00 to 17:00, America/New_York). Request counts, machine-independent. `npm run bench -- --team-day-only` measures it alone.";

/** `npm run bench -- --team-day-only`: item 8 alone (request counts), merged into results.json. */
async function teamDayOnly(root: string): Promise<void> {
	const file = join(root, 'bench', 'results.json');
	const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
	await teamDayItem(results);
	results.notes = [...results.notes.filter((note) => !note.startsWith('Item 8')), TEAM_DAY_NOTE];
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(join(root, 'bench', 'results.md'), markdownReport(results));
	console.log(consoleTable(results));
}

async function teamDayItem(results: BenchResults): Promise<void> {
	step("8. A team's weekday on one workspace (virtual time, deployed limits)");
	const evenly = await benchTeamDay(PRACTICE_EVENLY);
	results.teamDay = {
		...(await benchTeamDay()),
		evenly: {
			requestsPerDay: evenly.requestsPerDay,
			requestsPerWorkflow: evenly.requestsPerWorkflow,
			rateLimitedAnswers: evenly.rateLimitedAnswers,
			missedEvents: evenly.missedEvents,
			practiceMedianDelayMinutesWorkingHours: evenly.practiceMedianDelayMinutesWorkingHours,
		},
	};
	const t = results.teamDay;
	step(
		`   ${t.requestsPerDay} requests (goal ≤ ${t.goalRequestsPerDay}), ${t.rateLimitedAnswers} answers 429, ${t.missedEvents} missed, practice median ${t.practiceMedianDelayMinutesWorkingHours} min in working hours`,
	);
	step(`   per workflow: ${JSON.stringify(t.requestsPerWorkflow)}`);
}

const SCALE_NOTE =
	"Item 9 (issue 40): item 8's day at three sizes (team: 200 members, 20 skills, 150 scored sessions, 300 open assignments, 300 files, 20 jobs; org500: 500, 40, 400, 1,500, 1,000 pages, 500 files, 40 jobs; enterprise2000: 2,000, 80, 1,500 and 100 calls, 5,000, 10,000 pages, 2,000 files, 60 jobs), the sessions spread over the scenarios (a quarter on an assignment of the member's), every member observed in every skill, plus the Skill Tiers trigger (every skill, read once a day in the 23:00 hour (TIER_READS), after the working day, so its read covers a day of practice) and the weekly tier digest (Skill → Get Tier Changes, every skill, 07:00 on its weekday). Past-due events judged by an oracle from the simulator's assignment log (each change to past_due due from the next read of the open assignments, unless it ended before that read). The Skill Tiers trigger is measured in its ordinary state, not on its activation day: activated at 23:00 on the day a sweep period and one day before the measured day (Sweep Every (Days) 7, so 8 days before; 30 at enterprise2000, so 31), then polled at its Poll Times every night, its static data kept from poll to poll, with the deployed limits off and its requests not counted in the day; by the day every skill was swept once and every member is known to it. skillTiersWarmUp says what those days cost (requests over how many days, and day by day): the activation read takes 2 requests (the skills, a count of the members); until a skill's first sweep each member who practised it is read twice (as of now, and as of the skill's start), so the first sweep period costs more a day than the ordinary day, which reads each practised skill once per 100 members plus its share of the sweep. The practice triggers (coach alert, past-due digest) are likewise activated at 21:00 two evenings before the day and polled at their Poll Times until the setup (uncounted, limits off), so their Max Reads a Day starts the day as a working day leaves it, not empty as on an activation evening. sharedReadsSaved is 0: shared reads are gone (the lead's decision). Issue 48: every size adds the Outcomes workflow (Practice Results on Assignment Completed and Did Not Pass, the practice Poll Times, defaults), judged per assignment ID against the simulator's log; `families` judges every family per ID against the simulator's log (bench/scenarios/dayOracle.ts, written from the spec and the docs, not the trigger's code): Session Scored from the sessions' score log, the Knowledge Hub watcher from the page log and the sources, jobs from the store, Tier Changed from the simulator's proficiency at each read of the Skill Tiers trigger against the tier last reported (`tierChanged`: members who practised, due at that read; `tierChangedBySweep`: calls and the like, due within Sweep Every (Days); `tierBeforeDay*`: its warm-up's reads), with missed, duplicates, unexpected and the delay from the change to the item (median, p90, max minutes); any nonzero turns the row MISSED; Issue 55: the first week is run day by day, no arithmetic: one world living 7 days from Monday 16 March 2026 (sessions, calls, jobs and tool calls on the 5 working days; the nightly sync, past-due assignments and the triggers every day; the weekly tier digest on Wednesday), every trigger activated at 09:00 on day 1 (Skill Tiers too: its activation read is the oracle's baseline), its state kept from day to day, at the advised Sweep Every (Days) (7; 30 at 2,000 members) and at 2,000 members also at the form's default 7 (`firstWeekDefaultSweep`); each day's requests (`firstWeekRequestsByDay`, the dearest `firstWeekMaxRequestsPerDay`), 429s, and every family judged per ID over the week by the day oracle with the docs' bound for each (Session Scored and outcomes a scored session shows: by the read after the first read at or after the change; Tier Changed of members who practised: within the hour the night's read began; past due: by the next read of the open assignments; a later event counts as missed, `late`), `firstWeekMissedEvents` their sum (goal 0); the activation day is the week's day 1. Issue 54: on each working day an eighth of the sessions' count of assignments is given between 08:00 and 11:00 and practised that day (`sameDayOutcomes`: their outcomes' delay in working hours, median, p90, max). Skill Tiers' Poll Times: TIER_READS (every 10 minutes through the 23:00 hour since issue 55; once at 23:00 before). busyDay (item 9b): the 2,000-member day with 3,000 sessions, the Outcomes workflow beside the others, its 429s by path and instant. `npm run bench -- --scale-only [--size=enterprise2000] [--no-busy]` measures it alone.";

type SizeName = keyof typeof SIZES;

/** `--size=a,b` (default: every size). */
function sizesAsked(): SizeName[] {
	const arg = process.argv.find((a) => a.startsWith('--size='));
	if (!arg) return Object.keys(SIZES) as SizeName[];
	const names = arg.slice('--size='.length).split(',');
	for (const name of names)
		if (!(name in SIZES))
			throw new Error(`--size: ${name} is not one of ${Object.keys(SIZES).join(', ')}`);
	return names as SizeName[];
}

async function scaleItem(results: BenchResults, sizes: SizeName[]): Promise<void> {
	results.scale ??= {};
	for (const name of sizes) {
		step(`9. The day at size ${name} (virtual time, deployed limits)`);
		const s = await benchScaleDay(SIZES[name]);
		results.scale[name] = s;
		step(
			`   ${s.requestsPerDay} requests (goal ≤ ${s.goalRequestsPerDay}), ${s.rateLimitedAnswers} × 429, ${s.missedEvents} missed, ${s.duplicateEvents} duplicates, median ${s.practiceMedianDelayMinutesWorkingHours} min, static ≤ ${s.staticDataBytesMax} B, ${s.runSeconds} s`,
		);
		step(`   per workflow: ${JSON.stringify(s.requestsPerWorkflow)}`);
		step(
			`   families: ${JSON.stringify(Object.fromEntries(Object.entries(s.families).map(([k, f]) => [k, `${f.delivered}/${f.expected} missed ${f.missed} dup ${f.duplicates} unexpected ${f.unexpected} delay ${f.medianDelayMinutes}/${f.p90DelayMinutes}/${f.worstDelayMinutes}`])))}`,
		);
		for (const [k, f] of Object.entries(s.families))
			for (const line of f.findings ?? []) step(`   ${k}: ${line}`);
		const a = s.activationDay;
		if (a)
			step(
				`   activation day (practice triggers at 09:00): ${a.requestsPerDay} requests, ${a.rateLimitedAnswers} × 429, ${a.missedEvents} missed, ${a.duplicateEvents} duplicates, median ${a.practiceMedianDelayMinutesWorkingHours} min; per workflow ${JSON.stringify(a.requestsPerWorkflow)}`,
			);
		for (const w of [s.firstWeek, s.firstWeekDefaultSweep])
			if (w) weekLines(w, s.goalRequestsPerDay);
		const same = s.sameDayOutcomes;
		if (same)
			step(
				`   same-day assignments: ${same.given} given, ${same.finished} finished, ${same.sent} sent; delay in working hours median ${same.medianWorkingHours}, p90 ${same.p90WorkingHours}, max ${same.maxWorkingHours}`,
			);
		const w = s.skillTiersWarmUp;
		step(
			`   Skill Tiers before the day (uncounted): ${w.requests} requests over ${w.days} days from ${w.activatedAt} (sweep every ${w.sweepDays} days), by day ${JSON.stringify(w.requestsByDay)}`,
		);
		if (Object.keys(s.errors).length) step(`   errors: ${JSON.stringify(s.errors)}`);
	}
}

function weekLines(w: FirstWeekFigures, goal: number): void {
	step(
		`   first week (Sweep Every ${w.sweepDays}): max ${w.maxRequestsPerDay} (goal ≤ ${goal}), by day ${JSON.stringify(w.requestsByDay)}, 429 by day ${JSON.stringify(w.rateLimitedByDay)}, missed by day ${JSON.stringify(w.missedByDay)} (${w.missedEvents} missed, ${w.duplicateEvents} duplicates, ${w.unexpectedEvents} unexpected), ${w.runSeconds} s`,
	);
	step(
		`      families: ${JSON.stringify(Object.fromEntries(Object.entries(w.families).map(([k, f]) => [k, `${f.delivered}/${f.expected} missed ${f.missed} (late ${f.late ?? 0}) dup ${f.duplicates} unexpected ${f.unexpected} delay ${f.medianDelayMinutes}/${f.p90DelayMinutes}/${f.worstDelayMinutes}`])))}`,
	);
	for (const [k, f] of Object.entries(w.families))
		for (const line of (f.findings ?? []).slice(0, 5)) step(`      ${k}: ${line}`);
	const same = w.sameDayOutcomes;
	step(
		`      same-day assignments: ${same.given} given, ${same.finished} finished, ${same.sent} sent; working hours median ${same.medianWorkingHours}, p90 ${same.p90WorkingHours}, max ${same.maxWorkingHours}; past-due digest's first day: ${JSON.stringify(w.pastDueFirstDay)}`,
	);
	step(
		`      Skill Tiers by day: ${JSON.stringify(w.requestsPerWorkflowByDay.map((d) => d['Skill Tiers'] ?? 0))}`,
	);
	if (Object.keys(w.errors).length) step(`      errors: ${JSON.stringify(w.errors)}`);
	if (w.rateLimitedFirst) step(`      429s: ${JSON.stringify(w.rateLimitedFirst)}`);
}

/** Issue 55: the busy day at 2,000 members (3,000 sessions), the Outcomes workflow beside the others. */
async function busyItem(results: BenchResults): Promise<void> {
	step('9b. A busy day at 2,000 members: 3,000 sessions (virtual time, deployed limits)');
	const b = await benchBusyDay();
	results.busyDay = b;
	step(
		`   ${b.requestsPerDay} requests, ${b.rateLimitedAnswers} × 429 ${JSON.stringify(b.rateLimitedPaths)} ${JSON.stringify(b.rateLimitedFirst ?? [])}, ${b.missedEvents} missed, ${b.duplicateEvents} duplicates, ${b.runSeconds} s`,
	);
	step(`   per workflow: ${JSON.stringify(b.requestsPerWorkflow)}`);
	step(
		`   families: ${JSON.stringify(Object.fromEntries(Object.entries(b.families).map(([k, f]) => [k, `${f.delivered}/${f.expected} missed ${f.missed} (late ${f.late ?? 0}) dup ${f.duplicates} unexpected ${f.unexpected} delay ${f.medianDelayMinutes}/${f.p90DelayMinutes}/${f.worstDelayMinutes}`])))}`,
	);
	for (const [k, f] of Object.entries(b.families))
		for (const line of (f.findings ?? []).slice(0, 5)) step(`   ${k}: ${line}`);
	if (Object.keys(b.errors).length) step(`   errors: ${JSON.stringify(b.errors)}`);
}

const DEMO_NOTE =
	"Item 10 (issue 57): `npm run demo` run as a newcomer meets it, in a child process of its own on the real clock: its wall time from the spawn to the exit and the longest silence between two lines of its output (the line it follows named); goals under 40 s and no silence over 10 s. Wall-clock figures: they move with the machine's load, so they are measured with no other bench running. `npm run bench -- --demo-only` measures it alone.";

/** Item 10: the demo's wall time and longest silence (real clock: run it with nothing else running). */
async function demoItem(results: BenchResults, root: string): Promise<void> {
	step('10. npm run demo as a newcomer meets it (real clock)');
	const d = await benchDemoTime(root);
	results.demo = d;
	step(
		`   ${round(d.wallMs / 1000, 1)} s, longest silence ${round(d.longestSilenceMs / 1000, 1)} s after "${d.longestSilenceAfter}", ${d.lines} lines, exit ${d.exitCode}`,
	);
}

/** `npm run bench -- --demo-only`: item 10 alone, merged into results.json. */
async function demoOnly(root: string): Promise<void> {
	const file = join(root, 'bench', 'results.json');
	const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
	await demoItem(results, root);
	results.notes = [...results.notes.filter((note) => !note.startsWith('Item 10')), DEMO_NOTE];
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(join(root, 'bench', 'results.md'), markdownReport(results));
	console.log(consoleTable(results));
}

/**
 * `npm run bench -- --week-only [--size=…] [--sweep-days=N]`: item 9's first week alone at the advised
 * Sweep Every (Days) (or N), day by day, printed and not merged in (a look at one week, without the
 * sizes' ordinary days).
 */
async function weekOnly(): Promise<void> {
	const arg = process.argv.find((a) => a.startsWith('--sweep-days='));
	for (const name of sizesAsked()) {
		const size = SIZES[name];
		const sweepDays = arg ? Number(arg.slice('--sweep-days='.length)) : advisedSweepDays(size);
		step(
			`9. The first week at size ${name}, Sweep Every ${sweepDays} (virtual time, deployed limits)`,
		);
		weekLines(await benchFirstWeek(size, sweepDays), GOALS[name] ?? 900);
	}
}

/** `npm run bench -- --scale-only [--size=team,org500,enterprise2000] [--no-busy | --busy-only]`: item 9 alone, merged in. */
async function scaleOnly(root: string): Promise<void> {
	const file = join(root, 'bench', 'results.json');
	const measured = { scale: {} } as BenchResults;
	if (!process.argv.includes('--busy-only')) await scaleItem(measured, sizesAsked());
	if (!process.argv.includes('--no-busy')) await busyItem(measured);
	// Read after the (long) run, so runs of different sizes side by side each keep their figures.
	const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
	results.scale = { ...results.scale, ...measured.scale };
	if (measured.busyDay) results.busyDay = measured.busyDay;
	results.notes = [...results.notes.filter((note) => !note.startsWith('Item 9')), SCALE_NOTE];
	writeFileSync(file, `${JSON.stringify(results, null, '\t')}\n`);
	writeFileSync(join(root, 'bench', 'results.md'), markdownReport(results));
	console.log(consoleTable(results));
}

export async function main(): Promise<void> {
	const started = performance.now();
	const root = repoRoot();
	if (process.argv.includes('--trigger-only')) return await triggerOnly(root);
	if (process.argv.includes('--job-list-only')) return await jobListOnly(root);
	if (process.argv.includes('--job-wait-only')) return await jobWaitOnly(root);
	if (process.argv.includes('--knowledge-hub-only')) return await knowledgeHubOnly(root);
	if (process.argv.includes('--team-day-only')) return await teamDayOnly(root);
	if (process.argv.includes('--scale-only')) return await scaleOnly(root);
	if (process.argv.includes('--week-only')) return await weekOnly();
	if (process.argv.includes('--demo-only')) return await demoOnly(root);
	if (process.argv.includes('--practice-scale-only')) return await practiceScaleOnly(root);
	const target = listTarget();
	const notes: string[] = [];
	console.log(
		`Benchmarks: ${config.runs} runs per figure, rows are ${target.label} (${target.resource} → Get Many).`,
	);

	step(
		`1. Return All and Limit ${config.limit} over ${config.rows} ${target.label}, ${config.latencyMs} ms latency`,
	);
	const list = await benchReturnAll(target);
	step(
		`   ${list.returnAll.requests} requests, ratio ${list.returnAll.ratioVsSequential}; Limit: ${list.limit120.requests} requests`,
	);
	step('5. Peak memory of item 1 (separate process)');
	let memory: { peakRssMb: number; engineRssMb: number };
	try {
		memory = await peakMemory(list.endpoint, target.resource, target.operation);
	} finally {
		await list.close();
	}

	step(
		`2. Return All with ${config.rateLimitPerMinute} requests a minute (time × ${config.rateLimitTimeScale})`,
	);
	const rateLimited = await benchRateLimited(target);
	step(
		`   completed ${rateLimited.completedRuns}/${rateLimited.runs}, ratio ${rateLimited.ratioVsBound}, ${rateLimited.rateLimitedAnswers} × 429`,
	);

	step(`3. Job wait (time × ${config.jobTimeScale})`);
	const jobWait: JobWaitFigures = await benchJobWait();
	step(
		`   calls: Until Callback ${jobWait.callbackCalls}, By Polling ${jobWait.pollingCalls}, every 5 s ${jobWait.naiveCalls}`,
	);

	step(`3b. 50 jobs By Polling (time × ${config.jobTimeScale})`);
	jobWait.list50 = await benchJobList(process.argv.includes('--sequential'));
	step(
		`   ratio ${jobWait.list50.wallRatioVsBound} of the bound, ${jobWait.list50.callsPerJob} calls per job at most`,
	);

	step(
		`4. ${config.perItemCount} items through one operation, ${config.perItemLatencyMs} ms latency`,
	);
	const perItem = await benchPerItem();
	step(
		`   ratio ${perItem.ratioVsBareClient} (${perItem.nodeMs} ms vs ${perItem.bareClientMs} ms)`,
	);

	step('5. Package size, dependencies, load time');
	const pkg = benchPackage(root);

	step('6. Knowledge Hub trigger: requests a day at default settings');
	const trigger = { ...(await benchTriggerQuota()), practice: await benchPracticeQuota() };

	notes.push(
		"The simulator runs in a process of its own (as the service runs on another machine); the node runs in n8n-core's WorkflowExecute in the bench process, the baselines use axios from the same process.",
		`Item 1 runs on a real clock with ${config.latencyMs} ms injected before every answer. The page walk is the HTTP Request node's pagination: page = previous + 1, page_size ${config.baselinePageSize}, stop at total_pages. The floor ${list.returnAll.floorRatio} is 1 + ceil(99 / 4) round trips against ${list.returnAll.baselineRequests}.`,
		`Item 2 is scaled in time: the simulator's clock runs ${config.rateLimitTimeScale}× faster than real time, so its one-minute window lasts ${60 / config.rateLimitTimeScale} s of real time; latency (${config.latencyMs} ms) and every Retry-After are divided by the same factor (a proxy rewrites the 429 answers). Times are in the service's seconds. Bound: floor((pages − 1) / ${config.rateLimitPerMinute}) minutes, plus the share of an unlimited run of the same node (measured just before, pair by pair) that the requests after the last full window need. The node's own work is not scaled, so it weighs ${config.rateLimitTimeScale}× more in these seconds than it would at real speed.`,
		JOB_WAIT_NOTE(),
		`Item 4 injects ${config.perItemLatencyMs} ms per request on both sides (short, so 1,000 items × ${config.runs} runs × 2 sides fit in the run time); the lower the latency, the more the engine's own per-item work shows in the ratio.`,
		'Item 5: load time is `require` of each built module in a fresh node process with n8n-workflow already loaded (as inside n8n); the cold figure including n8n-workflow is in results.json. Peak memory is the maximum RSS of a separate node process that loads the engine and runs item 1 once.',
	);
	if (jobWait.note) notes.push(`Item 3: ${jobWait.note}`);
	notes.push(JOB_LIST_NOTE);
	notes.push(TRIGGER_NOTE);
	// What limits the figures that depend on the node's own CPU work, measured in this run.
	const perItemOverhead = round(perItem.nodeMsPerItem - perItem.bareMsPerItem, 2);
	notes.push(
		`Item 4: the engine and the node add ${perItemOverhead} ms per item over the bare loop (n8n-core's request helper, the credential and its authenticate expression resolved for every request); at ${perItem.latencyMs} ms latency that is the whole difference, at 50 ms it would weigh a tenth as much.`,
	);
	const slowest = [...pkg.modules].sort((a, b) => b.loadMs - a.loadMs)[0];
	if (slowest) {
		notes.push(
			`Item 5: ${slowest.module} loads ${slowest.filesLoaded} compiled files of the package (every operation's form and code); its load time moves with the machine's load from run to run.`,
		);
	}

	const results: BenchResults = {
		date: new Date().toISOString(),
		nodeVersion: process.version,
		n8nCoreVersion: (
			JSON.parse(readFileSync(join(root, 'node_modules', 'n8n-core', 'package.json'), 'utf8')) as {
				version: string;
			}
		).version,
		machine: {
			cpus: os.cpus().length,
			cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
			memoryGb: round(os.totalmem() / 1024 ** 3, 1),
			platform: os.platform(),
			arch: os.arch(),
			loadAverage: os.loadavg().map((l) => round(l, 2)),
		},
		runs: config.runs,
		target: target.label,
		returnAll: list.returnAll,
		limit120: list.limit120,
		rateLimited,
		jobWait,
		perItem,
		package: { ...pkg, ...memory },
		trigger,
		notes,
		durationSeconds: 0,
	};
	await knowledgeHubItem(results);
	notes.push(KNOWLEDGE_HUB_NOTE);
	await teamDayItem(results);
	notes.push(TEAM_DAY_NOTE);
	await scaleItem(results, sizesAsked());
	await busyItem(results);
	notes.push(SCALE_NOTE);
	await demoItem(results, root);
	notes.push(DEMO_NOTE);
	results.durationSeconds = round((performance.now() - started) / 1000, 1);
	// `npm run bench:n8n` (bench/n8n/) records its figures in the same file: keep them.
	const resultsFile = join(root, 'bench', 'results.json');
	const previous = JSON.parse(readFileSync(resultsFile, 'utf8')) as Record<string, unknown>;
	const carried = Object.fromEntries(
		['peer', 'queue'].filter((key) => key in previous).map((key) => [key, previous[key]]),
	);
	writeFileSync(resultsFile, `${JSON.stringify({ ...results, ...carried }, null, '\t')}\n`);
	writeFileSync(join(root, 'bench', 'results.md'), markdownReport(results));
	console.log('');
	console.log(consoleTable(results));
	console.log('');
	for (const note of notes) console.log(`* ${note}`);
	console.log(`\nWrote bench/results.json and bench/results.md in ${results.durationSeconds} s.`);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : error);
		process.exitCode = 1;
	});
}
