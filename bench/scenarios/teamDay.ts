/**
 * A team's ordinary weekday on one workspace (issue 33), with the deployed limits on (60 requests a
 * minute, 10 creations a minute, 1,000 a day), in virtual time: the simulator's clock and this process's
 * Date.now move together, minute by minute, and every pause of a node from a second to two minutes
 * (pacing, 429 waits, job polling) moves them instead of passing. Request counts, machine-independent.
 *
 * The workflows, each as n8n would run it through n8n-core's engine:
 * - "Knowledge Hub watcher": the trigger with every event, its defaults (Poll Times Every Minute, Max
 *   Reads a Day 48: a read every 30 minutes);
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
 */
import type { CronExpression, IDataObject, INodeParameters, TriggerTime } from 'n8n-workflow';

import { ManualClock, startSimulator, type RunningSimulator } from '../../simulator';
import { PollHarness } from '../../n8n-harness/pollHarness';
import { pollTimes } from '../../n8n-harness/pollTimes';
import { runNode } from '../../n8n-harness/runNode';
import { runToolCalls } from '../../n8n-harness/runTool';
import { TriggerEndpoint } from '../../n8n-harness/webhookTrigger';
import { WebhookServer } from '../../n8n-harness/webhookServer';

export interface FamilyFigures {
	expected: number;
	delivered: number;
	missed: number;
	duplicates: number;
	medianDelayMinutes: number | null;
	worstDelayMinutes: number | null;
}

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

const MINUTE = 60_000;
const ZONE = 'America/New_York';
/** Wednesday 18 March 2026, 00:00 in New York (UTC-4). */
const DAY_START = Date.parse('2026-03-18T04:00:00.000Z');
const at = (hour: number, minute = 0) => DAY_START + (hour * 60 + minute) * MINUTE;
const WORK_START = at(9);
const WORK_END = at(17);
const FILES = 300;
const CHANGED = 5;

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
		medianDelayMinutes: sorted.length ? round(sorted[Math.floor((sorted.length - 1) / 2)]) : null,
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
	const clock = new ManualClock(DAY_START - 3 * 60 * MINUTE);
	const sim = await startSimulator({
		clock,
		dataSize: { members: 200, pages: 0 },
		jobTimings: { queuedMs: 30_000, processingMs: 270_000 },
	});
	const server = new WebhookServer();
	await server.start();
	const time = new VirtualTime(sim, clock.now());
	const restore = time.install();
	const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	try {
		const control = sim.control;
		const store = control.store;
		control.fillPractice({ sessions: 3000, assignments: 1000, open: 200, pastDue: 100 });

		// Setup before the day (uncounted): the 300 playbooks synced once, with the limits off.
		const files = Array.from({ length: FILES }, (_, i) =>
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

		// 10 open assignments fall past due through the day; nobody practises them.
		const open = store.data.assignments.filter(
			(a) => a.status === 'not_started' || a.status === 'in_progress',
		);
		const dueToday = open.slice(0, 10);
		dueToday.forEach((a, i) => (a.dueDate = at(1 + i * 2, 30)));
		const busyUsers = new Set(dueToday.map((a) => a.userId));
		const practising = store.data.users
			.filter((u) => u.member && !busyUsers.has(u.id))
			.slice(0, 60);
		const scenario = store.data.scenarios[0].id;

		const poller = (name: string, parameters: INodeParameters) =>
			new PollHarness({
				parameters,
				credentials,
				workflow: { id: name.replace(/\W+/g, '-').toLowerCase(), name, timezone: ZONE },
			});
		const watcher = poller('Knowledge Hub watcher', {
			events: ['pageCreated', 'pageUpdated', 'pagePublished', 'sourceReady'],
			options: { maxReadsPerDay: 48 },
		});
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
		const jobTrigger = new TriggerEndpoint(server, {
			nodeType: 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger',
			parameters: {},
			credentials: { workspacePracticeApi: credentials },
		});
		const triggers = [watcher, coach, digest];
		for (const trigger of triggers) {
			const activation = await trigger.poll();
			if (activation.error) throw activation.error;
		}

		// n8n polls from the activation on, as the Poll Times say: the hours before the day, uncounted
		// (a quota that no poll spent would otherwise be spent at once when the day starts).
		const beforeDay = pollTimes(practice.pollTimes, ZONE, time.now() + 1, DAY_START);
		for (let t = time.now() + MINUTE; t < DAY_START; t += MINUTE) {
			time.advance(t - time.now());
			const polls = [watcher];
			for (const at of beforeDay) if (at >= t && at < t + MINUTE) polls.push(coach, digest);
			for (const trigger of polls) {
				const outcome = await trigger.poll();
				if (outcome.error) throw outcome.error;
			}
		}

		// The day: limits on (fresh windows), the request log from here on.
		time.advance(DAY_START - time.now());
		control.setRateLimits(true);
		control.clearRequests();

		const perWorkflow: Record<string, number> = {};
		const spend = async (name: string, work: () => Promise<void>) => {
			const before = control.requests({}).length;
			await work();
			perWorkflow[name] = (perWorkflow[name] ?? 0) + control.requests({}).length - before;
		};

		// The world's plan.
		// Sessions at seeded random minutes of the working day (a fixed sequence: the figure repeats).
		let seed = 20260318;
		const random = () => {
			seed = (seed * 48271) % 2147483647;
			return seed / 2147483647;
		};
		const sessionsAt = Array.from(
			{ length: 150 },
			() => WORK_START + Math.floor(random() * ((WORK_END - WORK_START) / MINUTE)) * MINUTE,
		).sort((a, b) => a - b);
		const jobsAt = Array.from({ length: 20 }, (_, i) => WORK_START + 10 * MINUTE + i * 22 * MINUTE);
		const toolsAt = Array.from({ length: 60 }, (_, i) => WORK_START + 3 * MINUTE + i * 8 * MINUTE);
		const pending: Array<{ id: string; at: number; score: number }> = [];
		const scoredAt = new Map<string, number>();
		const lowScored = new Set<string>();
		const callbackJobs = new Set<string>();
		const jobDelays: number[] = [];
		const jobIds: string[] = [];
		const pollingDelays: number[] = [];
		const pollingIds: string[] = [];
		const coachIds: string[] = [];
		const coachDelays: number[] = [];
		const coachDelaysWorking: number[] = [];
		const digestIds: string[] = [];
		const digestDelays: number[] = [];
		const watcherIds: string[] = [];
		const watcherDelays: number[] = [];
		let toolAnswers = 0;
		let synced = false;
		let sessionIndex = 0;
		let jobIndex = 0;
		let toolIndex = 0;
		let startedSeen = 0;

		const jobTriggerRuns = async () => {
			await control.waitForCallbacks();
			const outputs = jobTrigger.outputs();
			while (startedSeen < outputs.length) {
				const json = outputs[startedSeen++][0]?.json ?? {};
				const job = (json.job ?? json) as IDataObject;
				const id = String(job.id ?? '');
				jobIds.push(id);
				const finished = Date.parse(String(job.completed_at ?? ''));
				jobDelays.push(Number.isNaN(finished) ? 0 : (time.now() - finished) / MINUTE);
			}
		};

		const practicePolls = new Map<number, number>();
		for (const at of pollTimes(practice.pollTimes, ZONE, DAY_START, DAY_START + 24 * 60 * MINUTE)) {
			const minute = Math.floor((at - DAY_START) / MINUTE);
			practicePolls.set(minute, (practicePolls.get(minute) ?? 0) + 1);
		}
		for (let minute = 0; minute < 24 * 60; minute++) {
			const t = DAY_START + minute * MINUTE;
			if (time.now() < t) {
				const before = control.requests({}).length;
				time.advance(t - time.now());
				await jobTriggerRuns();
				perWorkflow['Job Trigger'] =
					(perWorkflow['Job Trigger'] ?? 0) + control.requests({}).length - before;
			}
			const now = time.now();
			// Sessions practised and scored.
			while (sessionIndex < sessionsAt.length && sessionsAt[sessionIndex] <= now) {
				const n = sessionIndex++;
				const user = practising[n % practising.length];
				const score = 30 + ((n * 37) % 65);
				if (n % 3 === 0) {
					const s = control.addSession({ userEmail: user.email, scenario });
					pending.push({ id: s.id, at: now + (10 + (n % 31)) * MINUTE, score });
				} else {
					const s = control.addSession({ userEmail: user.email, scenario, score });
					scoredAt.set(s.id, now);
					if (score < 60) lowScored.add(s.id);
				}
			}
			for (const p of pending.filter((x) => x.at <= now)) {
				control.scoreSession(p.id, p.score);
				scoredAt.set(p.id, now);
				if (p.score < 60) lowScored.add(p.id);
				pending.splice(pending.indexOf(p), 1);
			}

			// Workflows started by a schedule or a person.
			if (!synced && now >= at(2)) {
				synced = true;
				const changed = [...files];
				for (let i = 0; i < CHANGED; i++)
					changed[i * 60] = fileItem(i * 60, `# Playbook ${i * 60}\n\nRevised tonight.\n`);
				await spend('Nightly sync', async () => {
					const run = await runNode({
						parameters: syncForm,
						credentials,
						input: changed,
						...syncRun,
						workflow: { id: 'nightly-sync', name: 'Nightly sync' },
					});
					if (run.error) throw run.error;
				});
			}
			while (jobIndex < jobsAt.length && jobsAt[jobIndex] <= now) {
				const n = jobIndex++;
				const byPolling = n % 4 === 3;
				await spend('Scenario jobs', async () => {
					const run = await runNode({
						parameters: {
							resource: 'scenarioJob',
							operation: 'create',
							userEmail: practising[n].email,
							prompt: `Team day job ${n}: a renewal call with a hesitant buyer`,
							waitForCompletion: byPolling ? 'poll' : 'off',
							...(byPolling ? {} : { additionalFields: { callbackUrl: jobTrigger.url } }),
						},
						credentials,
						workflow: { id: 'scenario-jobs', name: 'Scenario jobs' },
					});
					if (run.error) throw run.error;
					const job = run.items[0]?.json ?? {};
					if (byPolling) {
						pollingIds.push(String(job.id));
						const finished = Date.parse(String(job.completed_at ?? ''));
						if (job.status === 'completed')
							pollingDelays.push(Number.isNaN(finished) ? 0 : (time.now() - finished) / MINUTE);
					} else callbackJobs.add(String(job.id));
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
				if (outcome.error) throw outcome.error;
				for (const { json } of outcome.items) {
					const page = json.page as IDataObject | undefined;
					if (!page) continue;
					watcherIds.push(`${String(json.event)}:${String(page.id)}`);
					watcherDelays.push((polled - Date.parse(String(page.updated_at))) / MINUTE);
				}
			});
			// The practice triggers poll when their Poll Times fire in this minute (two entries: twice).
			for (let fired = 0; fired < (practicePolls.get(minute) ?? 0); fired++) {
				await spend('Coach alert', async () => {
					const outcome = await coach.poll();
					if (outcome.error) throw outcome.error;
					for (const { json } of outcome.items) {
						const id = String((json.session as IDataObject).id);
						coachIds.push(id);
						const scored = scoredAt.get(id) ?? polled;
						const delay = (polled - scored) / MINUTE;
						coachDelays.push(delay);
						if (scored >= WORK_START && scored < WORK_END) coachDelaysWorking.push(delay);
					}
				});
				await spend('Past-due digest', async () => {
					const outcome = await digest.poll();
					if (outcome.error) throw outcome.error;
					for (const { json } of outcome.items) {
						const row = json.assignment as IDataObject;
						digestIds.push(String(row.id));
						const due = dueToday.find((a) => a.id === row.id)?.dueDate ?? polled;
						digestDelays.push((polled - due) / MINUTE);
					}
				});
			}
		}
		// The last callbacks of the day.
		await jobTriggerRuns();

		const all = control.requests({});
		const usage = control.rateLimitUsage();
		// What the watcher should have seen: the pages the sync changed tonight (updated and published).
		const changedPages = store.data.pages.filter((p) => (p.updatedAt ?? 0) >= DAY_START);
		const families = {
			knowledgeHubPages: family(watcherDelays, changedPages.length * 2, watcherIds),
			sessionScored: family(coachDelays, lowScored.size, coachIds),
			assignmentPastDue: family(
				digestDelays,
				dueToday.filter((a) => a.status === 'past_due').length,
				digestIds,
			),
			jobTrigger: family(jobDelays, callbackJobs.size, jobIds),
			jobByPolling: family(pollingDelays, 5, pollingIds),
			toolCalls: family(
				[],
				toolsAt.length,
				Array.from({ length: toolAnswers }, (_, i) => String(i)),
			),
		};
		const missedEvents = Object.values(families).reduce((n, f) => n + f.missed, 0);
		const sortedWorking = [...coachDelaysWorking].sort((a, b) => a - b);
		if (process.env.TEAM_DAY_DEBUG) console.error(JSON.stringify(sortedWorking));
		return {
			requestsPerDay: usage.day,
			goalRequestsPerDay: 350,
			requestsPerWorkflow: perWorkflow,
			rateLimitedAnswers: all.filter((r) => r.status === 429).length,
			missedEvents,
			duplicateEvents: Object.values(families).reduce((n, f) => n + f.duplicates, 0),
			practiceMedianDelayMinutesWorkingHours: sortedWorking.length
				? round(sortedWorking[Math.floor((sortedWorking.length - 1) / 2)])
				: null,
			goalPracticeMedianDelayMinutes: 5,
			families,
			practiceSchedule: practice.label,
			timeZone: ZONE,
		};
	} finally {
		restore();
		await server.close();
		await sim.close();
	}
}
