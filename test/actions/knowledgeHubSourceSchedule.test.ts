/**
 * The wait's schedule and cost in simulated time: every pause of the node moves both Date.now and the
 * simulator's clock instead of passing, so a one-minute extraction runs in milliseconds. Date.now
 * stands still between pauses (only the pauses move it), so how long the HTTP calls really take on a
 * busy machine never comes off the next pause: the figures are exact, not rounded.
 */
import { ManualClock } from '../../simulator';
import { json, useSimulator } from './support';

const clock = new ManualClock();
let offset = 0;
/** The virtual now: a fixed start plus the pauses taken, never the wall clock. */
const start = Date.now();
const pauses: number[] = [];
const pauseSeconds = () => pauses.map((ms) => ms / 1000);

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: async (ms: number) => {
		pauses.push(ms);
		offset += ms;
		clock.advance(ms);
	},
}));

beforeEach(() => {
	pauses.length = 0;
	jest.spyOn(Date, 'now').mockImplementation(() => start + offset);
});
afterEach(() => jest.restoreAllMocks());

// Extraction takes one minute: 10 s pending, then 50 s processing.
const sim = useSimulator('knowledgeHubSource', {
	clock,
	sourceTimings: { pendingMs: 10_000, processingMs: 50_000 },
});

test('a source ready after one minute: reads at 10 s, 30 s and 70 s, 4 calls with the creation', async () => {
	const { items, error } = await sim.run({
		operation: 'createFromUrl',
		url: 'https://example.com/one-minute',
		title: 'One minute',
	});
	expect(error).toBeUndefined();
	expect(pauseSeconds()).toEqual([10, 20, 40]);
	const calls = sim.control.requests({ path: '/knowledge-hub/*' });
	expect(calls.map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'GET']);
	expect(json(items)[0]).toMatchObject({ status: 'ready', is_new: true });
});

test('the default 5-minute limit: at most 7 reads, the last at the limit', async () => {
	const { error } = await sim.run({
		operation: 'createFromUrl',
		url: 'https://example.com/hold-extraction',
		title: 'Never',
	});
	expect(error?.message).toMatch(/was not ready within 5 minute\(s\)/);
	expect(pauseSeconds()).toEqual([10, 20, 40, 60, 60, 60, 50]);
	expect(sim.control.requests({ path: '/knowledge-hub/*' })).toHaveLength(8);
});
