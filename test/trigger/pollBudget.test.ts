/**
 * Issue 47: the trigger's reads under n8n's poll budget against a slow service, in virtual time
 * (slowService.ts: every request takes the latency the test sets, on Date.now and on the simulator's
 * clock; the transport's waits are virtual too). The poll harness emulates n8n 2.41's durable
 * scheduler (`pollTimeoutMs` 45 s: budget 36 s, a longer poll abandoned), and starts polls together as
 * the legacy poller does when a read runs longer than the interval.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEEN_MAX_BYTES } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/changes';
import type { PollHarness, PollOutcome } from '../../n8n-harness/pollHarness';
import { durableBudgetMs, PollHarness as Harness } from '../../n8n-harness/pollHarness';
import { startVirtualTime } from './budgetStories';
import { practiceEventsOf, scoreSessions } from './practiceSetup';
import { eventsOf, useRig } from './setup';
import { advanceVirtualTime } from './slowService';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

const TIMEOUT = 45_000;
const BUDGET = durableBudgetMs(TIMEOUT);
const HOUR = 3_600_000;

const rig = useRig();

const control = () => rig.sim.control;

/** A poll, timed on Date.now (virtual), with the requests it sent. */
async function timedPoll(
	trigger: PollHarness,
): Promise<PollOutcome & { ms: number; requests: number }> {
	const [start, sent] = [Date.now(), rig.slow.sent];
	const outcome = await trigger.poll();
	return { ...outcome, ms: Date.now() - start, requests: rig.slow.sent - sent };
}

interface Run {
	ids: string[];
	polls: number;
	requests: number;
	longestMs: number;
	largestState: number;
}

/**
 * Polls until `want` ids were emitted (or `maxPolls`), checking each poll: no error, not abandoned,
 * back within the budget. Returns what was emitted and what it cost.
 */
async function drain(
	trigger: PollHarness,
	idsOf: (outcome: PollOutcome) => string[],
	want: number,
	maxPolls: number,
): Promise<Run> {
	const run: Run = { ids: [], polls: 0, requests: 0, longestMs: 0, largestState: 0 };
	while (run.ids.length < want && run.polls < maxPolls) {
		const outcome = await timedPoll(trigger);
		expect(outcome.error).toBeUndefined();
		expect(outcome.abandoned).toBeUndefined();
		run.polls++;
		run.requests += outcome.requests;
		run.longestMs = Math.max(run.longestMs, outcome.ms);
		run.largestState = Math.max(run.largestState, JSON.stringify(trigger.stored).length);
		run.ids.push(...idsOf(outcome));
	}
	return run;
}

/** Polls until the read in progress is done (no `continues` kept), emitting nothing more. */
async function readThrough(trigger: PollHarness): Promise<void> {
	for (let i = 0; i < 5 && trigger.stored.continues === true; i++) {
		const outcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		expect(outcome.items).toEqual([]);
	}
	expect(trigger.stored.continues).toBeUndefined();
}

/** A read over several polls, done: the day's read is spent, the next polls that day send nothing. */
async function spentOnce(trigger: PollHarness, run: Run): Promise<void> {
	expect(run.polls).toBeGreaterThan(1);
	await readThrough(trigger);
	const sent = rig.slow.sent;
	for (let i = 0; i < 3; i++) {
		advanceVirtualTime(HOUR);
		expect((await trigger.poll()).error).toBeUndefined();
	}
	expect(rig.slow.sent).toBe(sent);
}

const pageIds = (outcome: PollOutcome) => eventsOf(outcome.items).map((e) => e.id);
const sessionIds = (outcome: PollOutcome) => practiceEventsOf(outcome.items).map((e) => e.id);

describe('the test support', () => {
	test("n8n 2.41's durable scheduler answers 36 s for its 45 s timeout", () => {
		expect(BUDGET).toBe(36_000);
		// The timeout raised past the lease: the lease bounds it.
		expect(durableBudgetMs(90_000)).toBe(48_000);
	});

	test('each request takes the virtual latency on both clocks', async () => {
		const trigger = rig.harness({ events: ['pageCreated'] });
		rig.slow.start(10_000);
		const [host, service] = [Date.now(), rig.clock.now()];
		const outcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		const sent = rig.slow.sent;
		expect(sent).toBeGreaterThan(0);
		expect(Date.now() - host).toBeGreaterThanOrEqual(sent * 10_000);
		expect(rig.clock.now() - service).toBe(sent * 10_000);
	});
});

// ---------- Knowledge Hub ----------

/** A Knowledge Hub trigger under the durable scheduler, its starting point taken. */
async function knowledgeHub(parameters: INodeParameters = {}): Promise<PollHarness> {
	const trigger = rig.harness(
		{ events: ['pageCreated'], ...parameters },
		{ pollTimeoutMs: TIMEOUT },
	);
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	return trigger;
}

/** `count` new pages, `perSecond` to a second of service time, oldest first. */
function createPages(count: number, perSecond: number, title = 'Backlog'): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		if (i % perSecond === 0) control().advance(1000);
		ids.push(control().createPage({ title: `${title} ${i}` }).id);
	}
	return ids;
}

describe('Knowledge Hub, 36 s budget, the service at 10 s a request', () => {
	test.each([
		['in one second', 500],
		['over 100 seconds', 5],
	])(
		'500 new pages %s: read over several polls, each back in time, every page once, in order',
		async (_, perSecond) => {
			const trigger = await knowledgeHub();
			const ids = createPages(500, perSecond);
			rig.slow.start(10_000);
			const run = await drain(trigger, pageIds, ids.length, 15);
			expect(run.ids).toEqual(ids);
			expect(run.polls).toBeGreaterThan(1);
			expect(run.longestMs).toBeLessThanOrEqual(BUDGET);
			expect(run.largestState).toBeLessThan(SEEN_MAX_BYTES + 1000);
			// Nothing more, nothing again.
			for (let i = 0; i < 3; i++) expect(pageIds(await timedPoll(trigger))).toEqual([]);
			process.stdout.write(
				`Knowledge Hub, 500 pages ${_}, 10 s a request: ${JSON.stringify(run, (k, v) => (k === 'ids' ? undefined : v))}\n`,
			);
		},
	);

	test('Fetch Full Record: the detail reads stop at the deadline too and the next polls go on', async () => {
		const trigger = await knowledgeHub({ options: { fetchFull: true } });
		const ids = createPages(40, 1);
		rig.slow.start(2_000);
		const run = await drain(
			trigger,
			(outcome) => {
				// Full records (with content), not list rows.
				for (const { json } of outcome.items) expect(json.page).toHaveProperty('content');
				return pageIds(outcome);
			},
			ids.length,
			10,
		);
		expect(run.ids).toEqual(ids);
		expect(run.polls).toBeGreaterThan(1);
		expect(trigger.sentAfterAbandon).toBe(0);
		expect(pageIds(await timedPoll(trigger))).toEqual([]);
	});

	test('two polls started together make one read', async () => {
		const trigger = await knowledgeHub();
		const ids = createPages(150, 1);
		rig.slow.start(10_000);
		control().clearRequests();
		const together = await trigger.pollTogether();
		const sent = control().requests({}).length;
		expect(together.map((o) => o.error)).toEqual([undefined, undefined]);
		const emitted = together.flatMap(pageIds);
		// One poll read, the other sent nothing and emitted nothing.
		expect(together.filter((o) => o.items.length > 0)).toHaveLength(1);
		expect(new Set(emitted).size).toBe(emitted.length);
		const run = await drain(trigger, pageIds, ids.length - emitted.length, 10);
		expect([...emitted, ...run.ids]).toEqual(ids);
		// The same read alone: as many requests as the pair sent.
		const alone = await knowledgeHub();
		createPages(150, 1, 'Alone');
		control().clearRequests();
		expect((await alone.poll()).error).toBeUndefined();
		expect(control().requests({}).length).toBe(sent);
	});

	test('a poll abandoned by the durable scheduler sends nothing after it and loses nothing', async () => {
		const trigger = await knowledgeHub();
		const ids = createPages(500, 5);
		const before = trigger.stored;
		rig.slow.start(1_000);
		// The service slows down in the middle of the read: one request takes 50 s, past n8n's timeout.
		rig.proxy.onRequest((count) => {
			if (count === 3) rig.slow.latencyMs = 50_000;
		});
		const abandoned = await timedPoll(trigger);
		expect(abandoned).toMatchObject({ abandoned: true, items: [] });
		expect(abandoned.ms).toBeGreaterThan(TIMEOUT);
		expect(trigger.sentAfterAbandon).toBe(0);
		expect(trigger.stored).toEqual(before);
		rig.proxy.onRequest(undefined);
		rig.slow.latencyMs = 10_000;
		const run = await drain(trigger, pageIds, ids.length, 15);
		expect(run.ids).toEqual(ids);
		expect(trigger.sentAfterAbandon).toBe(0);
	});

	// With Fetch Full Record, one list page: no cut is kept in `progress`, only the runner's `continues`
	// (family.ts) says that the read whose detail reads the deadline stopped goes on.
	test.each([
		['500 pages at 10 s a request', {}, 500, 10_000],
		['Fetch Full Record, 90 pages at 2 s a request', { fetchFull: true }, 90, 2_000],
	])(
		'a read continued over several polls spends Max Reads a Day once: %s',
		async (_, options, count, latencyMs) => {
			const trigger = rig.harness(
				{ events: ['pageCreated'], options: { maxReadsPerDay: 1, ...options } },
				{ pollTimeoutMs: TIMEOUT },
			);
			rig.slow.start(latencyMs);
			expect((await trigger.poll()).error).toBeUndefined();
			// The read after the starting point is ready an hour later (quota.ts).
			advanceVirtualTime(HOUR);
			const ids = createPages(count, count);
			const run = await drain(trigger, pageIds, ids.length, 15);
			expect(run.ids).toEqual(ids);
			await spentOnce(trigger, run);
		},
	);
});

// ---------- Practice Results ----------

/** A Practice Results trigger (Session Scored) under the durable scheduler, its starting point taken. */
async function practice(options: IDataObject = {}): Promise<PollHarness> {
	const trigger = rig.harness(
		{
			triggerOn: 'practice',
			practiceEvents: ['sessionScored'],
			practiceFilters: {},
			practiceOptions: { maxReadsPerDay: 0, openReadHours: 0, ...options },
		} as never,
		{ pollTimeoutMs: TIMEOUT },
	);
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.items).toEqual([]);
	return trigger;
}

describe('Practice Results, 36 s budget, the service at 2 s a request', () => {
	test('3,000 scored sessions: read over several polls, each back in time, every one once, in order', async () => {
		const trigger = await practice();
		const ids = scoreSessions(rig, 3000);
		rig.slow.start(2_000);
		const run = await drain(trigger, sessionIds, ids.length, 15);
		expect(run.ids).toEqual(ids);
		expect(run.polls).toBeGreaterThan(1);
		expect(run.longestMs).toBeLessThanOrEqual(BUDGET);
		for (let i = 0; i < 3; i++) expect(sessionIds(await timedPoll(trigger))).toEqual([]);
		process.stdout.write(
			`Practice Results, 3,000 sessions, 2 s a request: ${JSON.stringify(run, (k, v) => (k === 'ids' ? undefined : v))}\n`,
		);
	}, 120_000);

	test('Include Feedback: the per-session requests stop at the deadline and the next polls go on', async () => {
		const trigger = await practice({ includeFeedback: true });
		const ids = scoreSessions(rig, 60);
		rig.slow.start(2_000);
		const run = await drain(
			trigger,
			(outcome) => {
				for (const { json } of outcome.items)
					expect(json.session).toHaveProperty('constructive_feedback');
				return sessionIds(outcome);
			},
			ids.length,
			10,
		);
		expect(run.ids).toEqual(ids);
		expect(run.polls).toBeGreaterThan(1);
		expect(run.longestMs).toBeLessThanOrEqual(BUDGET);
		expect(sessionIds(await timedPoll(trigger))).toEqual([]);
	});

	test('two polls started together make one read', async () => {
		const trigger = await practice();
		const ids = scoreSessions(rig, 250);
		rig.slow.start(2_000);
		const together = await trigger.pollTogether();
		expect(together.map((o) => o.error)).toEqual([undefined, undefined]);
		expect(together.filter((o) => o.items.length > 0)).toHaveLength(1);
		const emitted = together.flatMap(sessionIds);
		const run = await drain(trigger, sessionIds, ids.length - emitted.length, 10);
		expect([...emitted, ...run.ids]).toEqual(ids);
	});

	test('a poll abandoned by the durable scheduler sends nothing after it and loses nothing', async () => {
		const trigger = await practice();
		const ids = scoreSessions(rig, 1000);
		const before = trigger.stored;
		rig.slow.start(2_000);
		rig.proxy.onRequest((count) => {
			if (count === 3) rig.slow.latencyMs = 50_000;
		});
		const abandoned = await timedPoll(trigger);
		expect(abandoned).toMatchObject({ abandoned: true, items: [] });
		expect(trigger.sentAfterAbandon).toBe(0);
		expect(trigger.stored).toEqual(before);
		rig.proxy.onRequest(undefined);
		rig.slow.latencyMs = 2_000;
		const run = await drain(trigger, sessionIds, ids.length, 10);
		expect(run.ids).toEqual(ids);
	});

	test('a read continued over several polls spends Max Reads a Day once', async () => {
		const trigger = await practice({ maxReadsPerDay: 1 });
		advanceVirtualTime(HOUR);
		const ids = scoreSessions(rig, 3000);
		rig.slow.start(2_000);
		const run = await drain(trigger, sessionIds, ids.length, 15);
		expect(run.ids).toEqual(ids);
		await spentOnce(trigger, run);
	}, 120_000);
});

describe('Practice Results assignments, 36 s budget, the service at 2 s a request', () => {
	test('2,000 open assignments: the starting point and the reads go on page by page, each past due once', async () => {
		const due = rig.clock.now() + 10 * 60_000;
		const ids: string[] = [];
		for (let i = 0; i < 2000; i++)
			ids.push(
				control().addAssignment({
					userEmail: 'dev@acme.com',
					scenario: 'procurement-discovery',
					dueDate: due,
				}).id,
			);
		rig.slow.start(2_000);
		const trigger = rig.harness(
			{
				triggerOn: 'practice',
				practiceEvents: ['assignmentCompleted', 'assignmentPastDue'],
				practiceFilters: {},
				practiceOptions: { maxReadsPerDay: 0, openReadHours: 0 },
			} as never,
			{ pollTimeoutMs: TIMEOUT },
		);
		// The starting point: 20 list pages of open ones, more than a poll takes at 2 s a request.
		const start = await drain(trigger, sessionIds, 1, 4);
		expect(start.ids).toEqual([]);
		expect(start.polls).toBeGreaterThan(1);
		await readThrough(trigger);
		advanceVirtualTime(20 * 60_000);
		const run = await drain(
			trigger,
			(outcome) => {
				for (const { json } of outcome.items) expect(json.event).toBe('assignmentPastDue');
				return practiceEventsOf(outcome.items).map((e) => e.id);
			},
			ids.length,
			10,
		);
		expect(run.polls).toBeGreaterThan(1);
		expect(run.longestMs).toBeLessThanOrEqual(BUDGET);
		expect([...run.ids].sort()).toEqual([...ids].sort());
		await readThrough(trigger);
		for (let i = 0; i < 2; i++) expect((await timedPoll(trigger)).items).toEqual([]);
		process.stdout.write(
			`Practice Results, 2,000 open assignments going past due, 2 s a request: ${JSON.stringify(run, (k, v) => (k === 'ids' ? undefined : v))}\n`,
		);
	}, 120_000);
});

// ---------- failures declared for n8n's scheduler ----------

describe("failures reach n8n's scheduler declared", () => {
	const failureOf = (outcome: PollOutcome) =>
		(outcome.error as (Error & { failure?: unknown }) | undefined)?.failure;

	test("the minute's 429 → rate-limited, with retryAfterMs from retry_after", async () => {
		const trigger = await knowledgeHub();
		createPages(300, 300);
		rig.slow.start(10_000);
		control().setRateLimits({ perMinute: 2 });
		const outcome = await trigger.poll();
		expect(outcome.error?.message).toMatch(/429/);
		expect(failureOf(outcome)).toEqual({ cause: 'rate-limited', retryAfterMs: expect.any(Number) });
		const { retryAfterMs } = failureOf(outcome) as { retryAfterMs: number };
		expect(retryAfterMs).toBeGreaterThan(0);
		expect(retryAfterMs).toBeLessThanOrEqual(60_000);
	});

	test("the day's 429 → quota-exhausted, with the instant it resets", async () => {
		const trigger = await knowledgeHub();
		createPages(300, 300);
		rig.slow.start(10_000);
		control().setRateLimits({ perMinute: 1000, perDay: 2 });
		const outcome = await trigger.poll();
		expect(failureOf(outcome)).toEqual({
			cause: 'quota-exhausted',
			resetsAtEpochMs: expect.any(Number),
		});
		const { resetsAtEpochMs } = failureOf(outcome) as { resetsAtEpochMs: number };
		expect(resetsAtEpochMs).toBeGreaterThan(Date.now());
		expect(resetsAtEpochMs).toBeLessThanOrEqual(Date.now() + 24 * HOUR);
	});

	test('401 → credential-invalid, and the error reads as before (n8n without `failure` shows the same)', async () => {
		const trigger = new Harness({
			parameters: { events: ['pageCreated'] },
			credentials: { baseUrl: rig.proxy.baseUrl, apiKey: `svc_live_${'x'.repeat(40)}` },
			pollTimeoutMs: TIMEOUT,
		});
		const outcome = await trigger.poll();
		expect(failureOf(outcome)).toEqual({ cause: 'credential-invalid' });
		expect(outcome.error).toMatchObject({ httpCode: '401' });
		// A plain data property: an n8n-workflow that has no such field carries it unread.
		expect(Object.getOwnPropertyDescriptor(outcome.error, 'failure')).toMatchObject({
			writable: true,
			enumerable: true,
		});
	});

	test('5xx after the retries → temporarily-unavailable', async () => {
		const trigger = await knowledgeHub();
		rig.slow.start(1_000);
		control().failNext(10, 503);
		const outcome = await trigger.poll();
		expect(outcome.error?.message).toMatch(/503/);
		expect(failureOf(outcome)).toEqual({ cause: 'temporarily-unavailable' });
	});
});

// ---------- one pace per key (issues 55 and 56) ----------

/**
 * Every trigger poll keeps to one per-key pace (family.ts starts each poll's run on POLL_PACE), so two
 * trigger workflows on one credential reading in the same minute share the key's minute instead of
 * drawing a 429 from the service (60 requests a minute per workspace).
 */
describe('two triggers on one key', () => {
	test('two Knowledge Hub triggers read 3,000 new pages in the same minute: no 429, every page once each', async () => {
		const activated = async () => {
			const trigger = rig.harness({ events: ['pageCreated'] });
			expect((await trigger.poll()).error).toBeUndefined();
			return trigger;
		};
		const [a, b] = [await activated(), await activated()];
		const ids: string[] = [];
		for (let i = 0; i < 3_000; i++) {
			// Fewer than a list page a second: the newest second comes with the rest (no wait for it).
			if (i % 75 === 0) control().advance(1000);
			ids.push(control().createPage({ title: `Shared ${i}` }).id);
		}
		// Each read lists 30 pages and more: 60 and more requests together, over the service's minute.
		control().setRateLimits(true);
		// Date.now is the service's clock: no wall-clock time between two requests moves the pacer alone.
		startVirtualTime(rig, 200);
		const [first, second] = await Promise.all([a.poll(), b.poll()]);
		for (const outcome of [first, second]) {
			expect(outcome.error).toBeUndefined();
			expect(eventsOf(outcome.items).map((e) => e.id)).toEqual(ids);
		}
		const refused = control()
			.requests({})
			.filter((request) => request.status === 429);
		expect(refused).toEqual([]);
		expect(control().rateLimitUsage().dayRejected).toBe(0);
		expect(rig.slow.sent).toBeGreaterThan(60);
		// 3,000 pages through n8n's engine twice is CPU work: the limit only stops a hung poll.
	}, 120_000);
});
