import type { IDataObject } from 'n8n-workflow';

import { SEED, SOURCE_FAIL_MARKER, SOURCE_HOLD_MARKER } from '../../simulator';
import type { RecordedRequest } from '../../simulator';
import { json, useSimulator } from './support';

const { folders, sources } = SEED;

// Extraction ends on the first read after creation (the simulator's clock does not move here).
const sim = useSimulator('knowledgeHubSource', {
	jobTimings: { queuedMs: 0, processingMs: 0 },
	sourceTimings: { pendingMs: 0, processingMs: 0 },
});
const { run } = sim;
const calls = () => sim.control.requests({ path: '/knowledge-hub/*' });

const waitParams = (extra: IDataObject = {}) => ({
	operation: 'createFromUrl',
	url: '={{ $json.url }}',
	title: '={{ $json.title }}',
	waitUntilReady: 'poll',
	...extra,
	options: { firstCheckSeconds: 0.02, ...((extra.options as IDataObject | undefined) ?? {}) },
});

/** Moves Date.now (what the node's time limit reads) forward, as minutes passing would. */
function shiftableNow(): { advance(ms: number): void } {
	const realNow = Date.now.bind(Date);
	let offset = 0;
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
	return { advance: (ms) => (offset += ms) };
}
afterEach(() => jest.restoreAllMocks());

async function seen(test: (r: RecordedRequest) => boolean): Promise<void> {
	const until = Date.now() + 20_000;
	while (!calls().some(test)) {
		if (Date.now() > until) throw new Error('request not seen in time');
		await new Promise((r) => setTimeout(r, 5));
	}
}

describe('Knowledge Hub Source → Create From URL, Wait Until Ready', () => {
	test('ready: the creation and one read; the output has the text status and is_new true', async () => {
		const { items, error } = await run(waitParams(), {
			input: [{ url: 'https://example.com/ready', title: 'Ready' }],
		});
		expect(error).toBeUndefined();
		const [created, read] = calls();
		expect([created.method, created.status]).toEqual(['POST', 201]);
		expect([read.method, read.path]).toEqual([
			'GET',
			`/knowledge-hub/sources/${String(json(items)[0].id)}`,
		]);
		expect(calls()).toHaveLength(2);
		expect(json(items)[0]).toMatchObject({ status: 'ready', is_new: true, title: 'Ready' });
		expect(json(items)[0].processed_at).toEqual(expect.any(String));
	});

	test('existing URL that is ready: 200, no read, is_new false', async () => {
		const { items } = await run(waitParams(), {
			input: [{ url: sources.urlReady.url, title: 'Again' }],
		});
		expect(calls().map((r) => [r.method, r.status])).toEqual([['POST', 200]]);
		expect(json(items)[0]).toMatchObject({
			id: sources.urlReady.id,
			status: 'ready',
			is_new: false,
		});
	});

	test('failed extraction: an error naming the source and what to do', async () => {
		const { error } = await run(waitParams(), {
			input: [{ url: `https://example.com/${SOURCE_FAIL_MARKER}`, title: 'Broken' }],
		});
		expect(error?.message).toMatch(
			/^Source "Broken" \([0-9a-f-]{36}\): text extraction failed from https:\/\/example\.com\/fail-extraction$/,
		);
		expect(error?.description).toMatch(/archive this source/);
	});

	test('past the time limit: an error naming the source and its last status', async () => {
		const now = shiftableNow();
		const running = run(waitParams({ options: { sourceTimeLimitMinutes: 1 } }), {
			input: [{ url: `https://example.com/${SOURCE_HOLD_MARKER}`, title: 'Slow' }],
		});
		await seen((r) => r.method === 'GET');
		now.advance(61_000);
		const { error } = await running;
		expect(error?.message).toMatch(
			/^Source "Slow" \(.+\) was not ready within 1 minute\(s\); its last status was "pending"$/,
		);
		expect(error?.description).toMatch(/Time Limit/);
	});

	test('a list of 20 with Continue On Fail: created first, then waited on together', async () => {
		const kinds = Array.from({ length: 20 }, (_, i) =>
			i % 5 === 1
				? 'fail'
				: i % 5 === 2
					? 'slow'
					: i % 5 === 3
						? 'existing'
						: i === 4
							? 'bad'
							: 'ok',
		);
		const input = kinds.map((kind, i) => ({
			url:
				kind === 'fail'
					? `https://example.com/${SOURCE_FAIL_MARKER}/${i}`
					: kind === 'slow'
						? `https://example.com/${SOURCE_HOLD_MARKER}/${i}`
						: kind === 'existing'
							? sources.urlReady.url
							: kind === 'bad'
								? 'not-a-url'
								: `https://example.com/doc/${i}`,
			title: `Doc ${i}`,
		}));
		const now = shiftableNow();
		const running = run(waitParams({ options: { sourceTimeLimitMinutes: 1 } }), {
			input,
			continueOnFail: true,
		});
		await seen((r) => r.method === 'GET');
		now.advance(61_000);
		const { items, error } = await running;
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		// Every creation comes before the first read.
		const methods = calls().map((r) => r.method);
		expect(methods.lastIndexOf('POST')).toBeLessThan(methods.indexOf('GET'));
		expect(methods.filter((m) => m === 'POST')).toHaveLength(19);
		items.forEach((item, i) => {
			const out = item.json;
			if (kinds[i] === 'ok') expect(out).toMatchObject({ status: 'ready', is_new: true });
			if (kinds[i] === 'existing') expect(out).toMatchObject({ status: 'ready', is_new: false });
			if (kinds[i] === 'fail') expect(out.error).toMatch(/text extraction failed/);
			if (kinds[i] === 'slow') expect(out.error).toMatch(/was not ready within 1 minute/);
			if (kinds[i] === 'bad') expect(out.error).toMatch(/^URL: must be a web address/);
		});
		// All are read together: one list read a round (the first, then the limit), no source alone.
		const reads = calls().filter((r) => r.method === 'GET');
		const readsOf = (i: number) =>
			reads.filter((r) => r.path.endsWith(String(items[i].json.id))).length;
		// (The clock jumps past the limit while the first read is in flight or just after: 1 or 2 rounds.)
		expect(new Set(reads.map((r) => r.path))).toEqual(new Set(['/knowledge-hub/sources']));
		expect(reads.length).toBeLessThanOrEqual(2);
		expect(readsOf(0)).toBe(0);
		expect(readsOf(3)).toBe(0);
	});

	test('a bad Time Limit fails before any request', async () => {
		const { error } = await run(waitParams({ options: { sourceTimeLimitMinutes: 0 } }), {
			input: [{ url: 'https://example.com/x', title: 'x' }],
		});
		expect(error?.message).toMatch(
			/^Options → Time Limit \(Minutes\): must be a whole number from 1 to 60/,
		);
		expect(calls()).toHaveLength(0);
	});

	test('a list in one folder: one list read, narrowed to that folder, for all of them', async () => {
		const input = Array.from({ length: 3 }, (_, i) => ({
			url: `https://example.com/folder/${i}`,
			title: `In folder ${i}`,
		}));
		const { items, error } = await run(
			waitParams({ additionalFields: { folder_ids: [folders.sales.id] } }),
			{ input },
		);
		expect(error).toBeUndefined();
		expect(json(items).map((item) => item.status)).toEqual(['ready', 'ready', 'ready']);
		const reads = calls().filter((r) => r.method === 'GET');
		expect(reads.map((r) => [r.path, r.query])).toEqual([
			['/knowledge-hub/sources', { folder_id: folders.sales.id, page: '1', page_size: '100' }],
		]);
	});

	test('101 sources: the list shows the newest 100; the one not on it is read alone', async () => {
		const input = Array.from({ length: 101 }, (_, i) => ({
			url: `https://example.com/many/${i}`,
			title: `Many ${i}`,
		}));
		const { items, error } = await run(
			{ ...waitParams(), batching: { requestsPerMinute: 0 } },
			{ input },
		);
		expect(error).toBeUndefined();
		expect(json(items).every((item) => item.status === 'ready')).toBe(true);
		// The one off the first page, by the list's order (newest first, then by ID).
		const ours = new Set(json(items).map((item) => String(item.id)));
		const [offPage] = sim.control.store.data.sources
			.filter((source) => !source.archived)
			.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id))
			.slice(100)
			.filter((source) => ours.has(source.id));
		const reads = calls().filter((r) => r.method === 'GET');
		expect(reads.map((r) => r.path)).toEqual([
			'/knowledge-hub/sources',
			`/knowledge-hub/sources/${offPage.id}`,
		]);
	});
});
