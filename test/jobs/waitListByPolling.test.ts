import type { IDataObject } from 'n8n-workflow';

import type { ManualClock, RecordedRequest, RunningSimulator } from '../../simulator';
import {
	apiCalls,
	bootJobSim,
	createParams,
	MEMBER_EMAIL,
	requestSeen,
	runJobNode,
	shiftableNow,
} from './jobTestKit';

let sim: RunningSimulator;
let clock: ManualClock;

// Jobs take 2 s of the simulator's clock, which moves only when a test moves it.
beforeEach(async () => {
	({ sim, clock } = await bootJobSim({ jobTimings: { queuedMs: 1000, processingMs: 1000 } }));
});
afterEach(async () => {
	jest.restoreAllMocks();
	await sim.close();
});

type Kind = 'ok' | 'fail' | 'slow' | 'bad';
const COUNT = 50;
/** 35 complete, 5 fail (prompt marker), 5 pass their 1-minute time limit, 5 have a bad e-mail. */
const kindOf = (i: number): Kind =>
	i % 10 === 3 ? 'bad' : i % 10 === 5 ? 'fail' : i % 10 === 7 ? 'slow' : 'ok';

function listInput(kinds: Kind[]): IDataObject[] {
	return kinds.map((kind, i) => ({
		email: kind === 'bad' ? 'nobody' : MEMBER_EMAIL(sim),
		prompt: `Deal ${i} (${kind})${kind === 'fail' ? ' [fail:GENERATION_ERROR]' : ''}`,
		// Slow jobs get the shortest time limit; the others have ten minutes, far more than they need.
		limit: kind === 'slow' ? 1 : 10,
	}));
}

const listParams = (extra: IDataObject = {}) =>
	createParams(sim, {
		userEmail: '={{ $json.email }}',
		prompt: '={{ $json.prompt }}',
		...extra,
		options: {
			firstPollSeconds: 0.05,
			timeLimitMinutes: '={{ $json.limit }}',
			...((extra.options as IDataObject | undefined) ?? {}),
		},
	});

async function postsSeen(count: number, timeoutMs = 20_000): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (apiCalls(sim).filter((r) => r.method === 'POST').length < count) {
		if (Date.now() > until)
			throw new Error(
				`only ${apiCalls(sim).filter((r) => r.method === 'POST').length} of ${count} creations seen`,
			);
		await new Promise((r) => setTimeout(r, 5));
	}
}

/**
 * Once every job exists: slow ones are held where they are, then the clock ends all the others. Once
 * the node reads (every job is created by then), a minute passes for it: slow jobs reach their limit.
 */
async function settleJobsWhenCreated(created: number): Promise<void> {
	const now = shiftableNow();
	await postsSeen(created);
	for (const job of sim.control.store.jobs.values()) {
		if (job.prompt.includes('(slow)')) sim.control.setJobState(job.id, 'queued');
	}
	clock.advance(2_000);
	await requestSeen(sim, (r) => r.method === 'GET', 20_000);
	now.advance(60_000);
}

/** The item index a job was created for, from its derived request ID (…-<item>). */
function itemOfJob(jobId: string): number {
	const job = sim.control.store.jobs.get(jobId);
	return Number(/-(\d+)$/.exec(job?.requestId ?? '')?.[1]);
}

function readsPerJob(calls: RecordedRequest[]): number[] {
	const reads = new Map<string, number>();
	for (const r of calls) if (r.method === 'GET') reads.set(r.path, (reads.get(r.path) ?? 0) + 1);
	return [...reads.values()];
}

describe('Scenario Job → Create By Polling with 50 items', () => {
	it('creates every valid job first, then waits on all together; each item gets its own outcome (Continue On Fail)', async () => {
		const kinds = Array.from({ length: COUNT }, (_, i) => kindOf(i));
		const valid = kinds.filter((k) => k !== 'bad').length;
		const run = runJobNode(sim, {
			parameters: listParams(),
			input: listInput(kinds),
			continueOnFail: true,
			executionId: 'exec-list-1',
		});
		await settleJobsWhenCreated(valid);
		const { items, error, workflow } = await run;

		expect(error).toBeUndefined();
		expect(items).toHaveLength(COUNT);
		const nodeId = workflow.getNode('Workspace Practice')!.id;
		items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			const json = item.json;
			if (kinds[i] === 'ok') {
				expect(json).toMatchObject({ status: 'completed', is_new: true });
				expect((json.scenario as IDataObject).slug).toEqual(expect.any(String));
				expect(itemOfJob(String(json.id))).toBe(i);
			} else if (kinds[i] === 'fail') {
				expect(json.error).toMatch(/^Scenario job \S+ failed: GENERATION_ERROR: /);
			} else if (kinds[i] === 'slow') {
				expect(json.error).toMatch(
					/^Scenario job \S+ did not finish within 1 minute\(s\); its last status was "queued"$/,
				);
			} else {
				expect(json.error).toMatch(/Member: must be an e-mail address/);
			}
		});

		const calls = apiCalls(sim);
		const posts = calls.filter((r) => r.method === 'POST');
		expect(posts).toHaveLength(valid);
		// The derived request ID per execution + node + item, in input order.
		expect(posts.map((p) => (p.body as IDataObject).request_id)).toEqual(
			kinds.flatMap((k, i) => (k === 'bad' ? [] : [`n8n-exec-list-1-${nodeId}-${i}`])),
		);
		// Every job was created before the first read.
		const firstRead = calls.findIndex((r) => r.method === 'GET');
		expect(firstRead).toBe(valid);
		const reads = readsPerJob(calls);
		expect(reads).toHaveLength(valid);
		expect(Math.max(...reads)).toBeLessThanOrEqual(9);
		expect(Math.min(...reads)).toBeGreaterThanOrEqual(1);
		expect(calls.filter((r) => r.method === 'DELETE')).toHaveLength(0);
		// Slow jobs keep running on the service without Cancel Job on Timeout.
		const slowJobs = [...sim.control.store.jobs.values()].filter((j) =>
			j.prompt.includes('(slow)'),
		);
		expect(slowJobs.map((j) => j.status)).toEqual(Array(5).fill('queued'));
	});

	it('a repeat with the same request IDs creates no second job and waits on none', async () => {
		const kinds = Array.from({ length: 10 }, (): Kind => 'ok');
		const params = listParams({
			options: { requestIdMode: 'custom', requestId: '=deal-{{ $itemIndex }}' },
		});
		const first = runJobNode(sim, { parameters: params, input: listInput(kinds) });
		await settleJobsWhenCreated(10);
		expect((await first).items.map((i) => i.json.status)).toEqual(Array(10).fill('completed'));
		sim.control.clearRequests();
		const again = await runJobNode(sim, { parameters: params, input: listInput(kinds) });
		expect(again.error).toBeUndefined();
		expect(again.items.map((i) => [i.json.is_new, i.pairedItem])).toEqual(
			kinds.map((_, i) => [false, { item: i }]),
		);
		expect(sim.control.store.jobs.size).toBe(10);
		expect(apiCalls(sim).map((r) => `${r.method} ${r.status}`)).toEqual(Array(10).fill('POST 200'));
	});

	it('without Continue On Fail a bad input stops the node before any request', async () => {
		const kinds = Array.from({ length: COUNT }, (_, i) => kindOf(i));
		const { error, items } = await runJobNode(sim, {
			parameters: listParams(),
			input: listInput(kinds),
		});
		expect(error?.message).toMatch(/Member: must be an e-mail address/);
		expect(items).toHaveLength(0);
		expect(apiCalls(sim)).toHaveLength(0);
	});

	it('without Continue On Fail waits on every job, cancels each slow one on its limit, then fails with the first failing item', async () => {
		const kinds = Array.from(
			{ length: COUNT },
			(_, i): Kind => (kindOf(i) === 'bad' ? 'ok' : kindOf(i)),
		);
		const run = runJobNode(sim, {
			parameters: listParams({ options: { cancelOnTimeout: true } }),
			input: listInput(kinds),
		});
		await settleJobsWhenCreated(COUNT);
		const { error } = await run;

		// Item 5 is the first to fail in input order (its job failed); item 7 timed out later in the list.
		expect(error?.message).toMatch(/^Scenario job \S+ failed: GENERATION_ERROR: /);
		const calls = apiCalls(sim);
		expect(calls.filter((r) => r.method === 'POST')).toHaveLength(COUNT);
		expect(calls.findIndex((r) => r.method === 'GET')).toBe(COUNT);
		const slowJobs = [...sim.control.store.jobs.values()].filter((j) =>
			j.prompt.includes('(slow)'),
		);
		expect(slowJobs.map((j) => j.status)).toEqual(Array(5).fill('cancelled'));
		expect(
			calls
				.filter((r) => r.method === 'DELETE')
				.map((r) => r.path)
				.sort(),
		).toEqual(slowJobs.map((j) => `/scenario-studio/jobs/${j.id}`).sort());
		expect(Math.max(...readsPerJob(calls))).toBeLessThanOrEqual(9);
	});
});
