/**
 * The read quota (quota.ts, Options → Max Reads a Day) under n8n's Poll Times, through n8n-core's
 * PollContext against the simulator. Polls happen when the Poll Times entries fire in the workflow's
 * time zone (n8n-harness/pollTimes.ts: n8n's own cron expressions); the simulator's clock and this
 * process's Date.now move together to each poll.
 */
import type { CronExpression, INodeParameters, TriggerTime } from 'n8n-workflow';

import type { Persistence } from '../../n8n-harness/pollHarness';
import { PollHarness } from '../../n8n-harness/pollHarness';
import { pollTimes } from '../../n8n-harness/pollTimes';
import { ManualClock, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: async () => {} }));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let sim: RunningSimulator;
const realNow = Date.now;
let host = 0;
beforeEach(async () => {
	host = Date.parse('2026-03-01T00:00:00Z');
	sim = await startSimulator({ clock: new ManualClock(host) });
	Date.now = () => host;
});
afterEach(async () => {
	Date.now = realNow;
	await sim.close();
});

/** Both clocks at `at`. */
function clockAt(at: number): void {
	host = at;
	sim.control.setTime(at);
}

const trigger = (
	parameters: INodeParameters,
	timezone: string,
	persistence: Persistence = 'staged',
) =>
	new PollHarness({
		parameters,
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		workflow: { id: `quota-${timezone}`, name: 'Quota', timezone },
		persistence,
	});

/** Polls at each instant; returns the instants of the polls that sent a request (the reads). */
async function play(harness: PollHarness, times: number[]): Promise<number[]> {
	const reads: number[] = [];
	for (const at of times) {
		clockAt(at);
		const before = sim.control.requests({}).length;
		const outcome = await harness.poll();
		if (outcome.error) throw outcome.error;
		if (sim.control.requests({}).length > before) reads.push(at);
	}
	return reads;
}

const local = (ms: number, timeZone: string) =>
	new Date(ms).toLocaleString('en-GB', { timeZone, hour12: false });

const EVERY_DAY_AT_6: TriggerTime[] = [{ mode: 'everyDay', hour: 6, minute: 0 }];
const EVERY_MINUTE: TriggerTime[] = [{ mode: 'everyMinute' }];
/** Every minute at second 0, so minute counts do not depend on n8n's random second. */
const EVERY_MINUTE_AT_0: TriggerTime[] = [
	{ mode: 'custom', cronExpression: '0 * * * * *' as CronExpression },
];

describe.each([
	// Spring forward: 29 March in Berlin and 8 March in New York have 23 hours.
	['Europe/Berlin', '2026-03-27T12:00:00Z'],
	['America/New_York', '2026-03-06T17:00:00Z'],
	// Fall back: 25 October in Berlin has 25 hours.
	['Europe/Berlin', '2026-10-23T12:00:00Z'],
])('Skill Tiers, Poll Times Every Day at 6 in %s from %s', (timeZone, activation) => {
	test('one read a day at 06:00 local time, the DST day included, after the activation read', async () => {
		const start = Date.parse(activation);
		const tiers = trigger(
			{ triggerOn: 'skillTiers', skillTierEvents: ['tierChanged'], skillTierSkills: [] },
			timeZone,
		);
		const times = [start, ...pollTimes(EVERY_DAY_AT_6, timeZone, start + MINUTE, start + 4 * DAY)];
		const reads = await play(tiers, times);
		expect(reads).toEqual(times);
		expect(reads.slice(1).map((at) => local(at, timeZone).slice(12, 17))).toEqual([
			'06:00',
			'06:00',
			'06:00',
			'06:00',
		]);
		// The gaps really were 23, 24 and 25 hours around the change.
		const gaps = reads.slice(2).map((at, i) => (at - reads[i + 1]) / HOUR);
		expect(gaps.some((gap) => gap !== 24)).toBe(true);
	});
});

test('Poll Times Every Hour at one read a day: the activation read, one an hour later, then one a day', async () => {
	const timeZone = 'Europe/Berlin';
	const start = Date.parse('2026-03-27T12:00:00Z');
	const tiers = trigger(
		{ triggerOn: 'skillTiers', skillTierEvents: ['tierChanged'], skillTierSkills: [] },
		timeZone,
	);
	const hourly: TriggerTime[] = [{ mode: 'everyHour', minute: 0 }];
	const reads = await play(tiers, [
		start,
		...pollTimes(hourly, timeZone, start + MINUTE, start + 4 * DAY),
	]);
	// The activation read, then one a day (the first an hour after the activation).
	expect(reads).toHaveLength(5);
	for (let i = 2; i < reads.length; i++)
		expect(reads[i] - reads[i - 1]).toBeGreaterThanOrEqual(0.95 * DAY);
});

test("Poll Times Every Minute at the default Max Reads a Day: 16 hours' worth at activation, then 48 reads a day, one every 30 minutes", async () => {
	const timeZone = 'America/New_York';
	const start = Date.parse('2026-03-09T04:00:00Z');
	// Practice Results at its default quota (the harness only lifts the Knowledge Hub one).
	const practice = trigger({ triggerOn: 'practice', practiceEvents: ['sessionScored'] }, timeZone);
	// n8n's polls from the activation (the first) to the same minute two days later.
	const times = pollTimes(EVERY_MINUTE, timeZone, start, start + 2 * DAY + MINUTE);
	expect(times).toHaveLength(1 + 2 * 24 * 60);
	const reads = await play(practice, times);
	// Practice Results starts with 16 hours' worth (32 at 48 a day, issue 48): the activation read and
	// the 31 kept read at the first polls, one a minute...
	expect(reads.slice(0, 32)).toEqual(times.slice(0, 32));
	// (what refills meanwhile reads too: a read or two more), and no more than that and a day's refill.
	expect(reads.filter((at) => at < start + DAY).length).toBeLessThanOrEqual(32 + 2 + 48);
	// ...then one every 30 minutes: 48 in the second day.
	const later = reads.filter((at) => at > start + DAY && at <= start + 2 * DAY);
	expect(later).toHaveLength(48);
	const gaps = later.slice(1).map((at, i) => Math.round((at - later[i]) / MINUTE));
	expect(gaps.every((gap) => gap === 30)).toBe(true);
}, 600_000);

test('Practice Results with assignment events alone defaults to 24 reads a day: one an hour (issue 48)', async () => {
	const timeZone = 'UTC';
	const start = Date.parse('2026-03-09T04:00:00Z');
	const outcomes = trigger(
		{ triggerOn: 'practice', practiceEvents: ['assignmentCompleted', 'assignmentDidNotPass'] },
		timeZone,
	);
	const every5: TriggerTime[] = [
		{ mode: 'custom', cronExpression: '0 */5 * * * *' as CronExpression },
	];
	const reads = await play(outcomes, [
		start,
		...pollTimes(every5, timeZone, start + 1, start + 2 * DAY + 1),
	]);
	// The second day: 24 reads, an hour apart (48, half an hour apart, before issue 48).
	const later = reads.filter((at) => at > start + DAY && at <= start + 2 * DAY);
	expect(later).toHaveLength(24);
	expect(later.slice(1).every((at, i) => at - later[i] === HOUR)).toBe(true);
}, 600_000);

describe('a Poll Times dense in working hours (every 10 minutes Mon-Fri 09-17) and sparse outside (every 6 hours), New York', () => {
	const timeZone = 'America/New_York';
	const workingHours: TriggerTime[] = [
		{ mode: 'custom', cronExpression: '0 */10 9-16 * * 1-5' as CronExpression },
		// Every 6 hours at :05 (n8n's Every X Hours picks a random minute; this one stays off the :10s).
		{ mode: 'custom', cronExpression: '0 5 */6 * * *' as CronExpression },
	];
	// Friday 13 March 2026, 18:00 in New York; to Wednesday 18:00.
	const start = Date.parse('2026-03-13T22:00:00Z');
	const end = start + 5 * DAY;
	const params = (maxReadsPerDay: number): INodeParameters => ({
		events: ['pageCreated'],
		options: { maxReadsPerDay },
	});
	const inWorkingHours = (at: number) => {
		const text = local(at, timeZone);
		return text.slice(12, 14) >= '09' && text.slice(12, 14) < '17';
	};

	jest.setTimeout(300_000);

	test('at the default 48 a day every poll reads: the weekend refills what working days spend beyond 48', async () => {
		const times = [start, ...pollTimes(workingHours, timeZone, start + 1, end)];
		const reads = await play(trigger(params(48), timeZone), times);
		expect(times.filter(inWorkingHours).length).toBeGreaterThanOrEqual(3 * 48);
		// All but the poll at 18:05, 5 minutes after the activation read (the next is back at 18:30).
		expect(times[1] - start).toBe(5 * MINUTE);
		expect(reads).toEqual(times.filter((at) => at !== times[1]));
	});

	test('at 24 a day the working day spends the day kept, then reads about once an hour', async () => {
		const times = [start, ...pollTimes(workingHours, timeZone, start + 1, end)];
		const reads = await play(trigger(params(24), timeZone), times);
		const monday = (at: number) => local(at, timeZone).startsWith('16/03/2026');
		const mondayWorking = reads.filter(
			(at) => monday(at) && inWorkingHours(at) && new Date(at).getUTCMinutes() % 10 === 0,
		);
		// A full quota at 09:00 (24, kept over the weekend) plus one an hour refilled while it is spent.
		expect(mondayWorking.length).toBeGreaterThanOrEqual(24 + 4);
		expect(mondayWorking.length).toBeLessThan(48);
		// The first 24 reads of the day are every poll (10 minutes apart).
		const early = mondayWorking
			.slice(0, 24)
			.map((at, i, all) => (i ? at - all[i - 1] : 10 * MINUTE));
		expect(early.every((gap) => gap === 10 * MINUTE)).toBe(true);
		// Over any 24 hours after the first day: at most one day's worth kept plus a day's refill.
		for (const at of reads)
			expect(reads.filter((r) => r >= at && r < at + DAY).length).toBeLessThanOrEqual(48);
	});
});

test('a failed read spends its read; the next poll the quota allows reads again from the same point', async () => {
	const timeZone = 'UTC';
	const start = Date.parse('2026-03-09T00:00:00Z');
	const kh = trigger({ events: ['pageCreated'], options: { maxReadsPerDay: 48 } }, timeZone);
	await play(kh, [start]);
	clockAt(start + 10 * MINUTE);
	const page = sim.control.createPage({ title: 'Made before the failure' });
	// Minute 30 is the first poll the quota allows after the activation read; it fails.
	const times = pollTimes(EVERY_MINUTE_AT_0, timeZone, start + 11 * MINUTE, start + 70 * MINUTE);
	const reads: number[] = [];
	const emitted: string[] = [];
	let failed = 0;
	const errors: string[] = [];
	// The next read fails: its request and the transport's retries are answered 500.
	sim.control.failNext(4);
	for (const at of times) {
		clockAt(at);
		const before = sim.control.requests({}).length;
		const outcome = await kh.poll();
		if (outcome.error) {
			failed++;
			errors.push(outcome.error.message);
		} else
			emitted.push(...outcome.items.map((item) => String((item.json.page as { id: string }).id)));
		// Failed requests are not in the simulator's log: a failed poll read.
		if (outcome.error || sim.control.requests({}).length > before)
			reads.push((at - start) / MINUTE);
	}
	expect(errors).toEqual([expect.stringMatching(/500/)]);
	expect(failed).toBe(1);
	// The failed read at 30 (spent: staged n8n drops its static data, the process remembers), then 60.
	expect(reads).toEqual([30, 60]);
	expect(emitted).toEqual([page.id]);
});

test("n8n 1.x saving static data only when a poll emits: reads are no more often than the quota's", async () => {
	const timeZone = 'UTC';
	const start = Date.parse('2026-03-09T00:00:00Z');
	const kh = trigger(
		{ events: ['pageCreated'], options: { maxReadsPerDay: 48 } },
		timeZone,
		'emit-only',
	);
	const times = [start, ...pollTimes(EVERY_MINUTE_AT_0, timeZone, start + 1, start + 3 * HOUR + 1)];
	const reads: number[] = [];
	for (const at of times) {
		// What the last poll wrote without emitting is dropped (n8n reloads the workflow from its
		// database, as on an edit of the active workflow); the process lives on.
		kh.restart();
		reads.push(...(await play(kh, [at])));
	}
	expect(kh.stored).toEqual({});
	expect(reads.map((at) => (at - start) / MINUTE)).toEqual([0, 30, 60, 90, 120, 150, 180]);
});

test('Max Reads a Day out of range is refused before any request, naming the field', async () => {
	const practice = trigger(
		{
			triggerOn: 'practice',
			practiceEvents: ['sessionScored'],
			practiceOptions: { maxReadsPerDay: 2000 },
		},
		'UTC',
	);
	const outcome = await practice.poll();
	expect(outcome.error?.message).toMatch(
		/^Options → Max Reads a Day: must be a whole number from 0 to 1440/,
	);
	expect(sim.control.requests({})).toHaveLength(0);
});

test('a test run with nothing to show says so the same way in every family', async () => {
	const kh = trigger(
		{ events: ['pageCreated'], filters: { titleContains: 'no page has this' } },
		'UTC',
	);
	const practice = trigger(
		{
			triggerOn: 'practice',
			practiceEvents: ['sessionScored'],
			practiceFilters: { scoreBelow: 0 },
		},
		'UTC',
	);
	const messages = [
		(await kh.poll('manual')).error?.message,
		(await practice.poll('manual')).error?.message,
	];
	expect(messages).toEqual([
		'No recent Knowledge Hub page or source to show',
		'No recent practice result to show',
	]);
});
