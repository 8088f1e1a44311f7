import { runNode } from '../../n8n-harness/runNode';
import { PROBE_NODE_TYPE } from '../../n8n-harness/transportProbe';
import { startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';

/**
 * Shared reads through the engine: identical GETs on one key within the window reach the simulator
 * once and every execution gets the same answer; anything else (another query, another workspace, no
 * opt-in, an older answer) reads on its own.
 */
let sim: RunningSimulator;
let other: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator();
	other = await startSimulator();
});
afterAll(async () => {
	await sim.close();
	await other.close();
});
beforeEach(() => {
	sim.control.clearRequests();
	other.control.setLatency(0);
	sim.control.setLatency(0);
});

const MEMBERS = '/workspace/members';

async function read(
	qs: Record<string, unknown>,
	shareWithinMs: number,
	target: RunningSimulator = sim,
	shareSince = 0,
) {
	const { items, error } = await runNode({
		nodeType: PROBE_NODE_TYPE,
		parameters: {
			method: 'GET',
			path: MEMBERS,
			qs: JSON.stringify(qs),
			shareWithinMs,
			shareSince,
		},
		credentials: { baseUrl: target.baseUrl, apiKey: target.apiKey },
	});
	if (error) throw error;
	return items[0].json.body as { data: Array<{ id: string }> };
}

const sent = () => sim.control.requests({ path: MEMBERS }).length;
let page = 0;
/** A query no earlier test asked, so the table starts empty for it. */
const fresh = () => ({ page_size: 3, page: ++page });

test('two executions reading the same list at once: one request, the same rows for both', async () => {
	sim.control.setLatency(300);
	const qs = fresh();
	const [a, b] = await Promise.all([read(qs, 5000), read(qs, 5000)]);
	expect(sent()).toBe(1);
	const direct = (await (
		await fetch(`${sim.baseUrl}${MEMBERS}?page=${qs.page}&page_size=3`, {
			headers: { Authorization: `Bearer ${sim.apiKey}` },
		})
	).json()) as { data: Array<{ id: string }> };
	expect(a.data.map((m) => m.id)).toEqual(direct.data.map((m) => m.id));
	expect(b).toEqual(a);
});

test('a later identical read within the window is answered from the first; the query order does not matter', async () => {
	const qs = fresh();
	await read(qs, 5000);
	await read({ page: qs.page, page_size: qs.page_size }, 5000);
	expect(sent()).toBe(1);
});

test('outside the window, another query, without opt-in or on another workspace: a request each', async () => {
	const qs = fresh();
	await read(qs, 5000);
	const realNow = Date.now;
	Date.now = () => realNow.call(Date) + 6000;
	try {
		await read(qs, 5000);
	} finally {
		Date.now = realNow;
	}
	expect(sent()).toBe(2);
	await read({ ...qs, page_size: 4 }, 5000);
	expect(sent()).toBe(3);
	await read(qs, 0);
	expect(sent()).toBe(4);
	other.control.clearRequests();
	await read(qs, 5000, other);
	expect(other.control.requests({ path: MEMBERS })).toHaveLength(1);
	expect(sent()).toBe(4);
});

test('a run is never handed an answer sent before its mark (a trigger: before its previous read ended)', async () => {
	const qs = fresh();
	await read(qs, 5000);
	// No mark given: the run marks its first read, so the answer above is not shared with it.
	await read(qs, 5000, sim, -1);
	expect(sent()).toBe(2);
});

test('a shared read that fails: the execution that joined it reads on its own and succeeds', async () => {
	const qs = fresh();
	sim.control.setLatency(200);
	// Every attempt of the first read fails (4 attempts); the joiner's own read then succeeds.
	sim.control.failNext(4, 500);
	const [a, b] = await Promise.allSettled([
		read(qs, 5000),
		new Promise((r) => setTimeout(r, 50)).then(async () => await read(qs, 5000)),
	]);
	expect(a.status).toBe('rejected');
	expect(b.status).toBe('fulfilled');
	expect(sent()).toBe(5);
});
