import { SEED_NOW } from '../../simulator';
import { SEEN_MAX_BYTES } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/changes';
import type { PollHarness } from '../../n8n-harness/pollHarness';
import { eventsOf, useRig } from './setup';
import { virtualTime } from './slowService';

// Sleeps on virtual time where a test starts it (rig.slow): the per-key pace's waits take no wall time.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

const ALL_EVENTS = ['pageCreated', 'pageUpdated', 'pagePublished', 'sourceReady'];
const PAGE_LIST = '/knowledge-hub/pages';

const rig = useRig();

const control = () => rig.sim.control;
const listRequests = () => control().requests({ method: 'GET', path: PAGE_LIST });

/** A trigger that has taken its starting point. */
async function activated(
	parameters: Record<string, unknown> = { events: ALL_EVENTS },
	persistence?: 'staged' | 'emit-only',
): Promise<PollHarness> {
	const trigger = rig.harness(parameters as never, { persistence });
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.items).toEqual([]);
	control().clearRequests();
	return trigger;
}

async function pollOk(trigger: PollHarness) {
	const outcome = await trigger.poll();
	expect(outcome.error).toBeUndefined();
	return eventsOf(outcome.items);
}

describe('first activation', () => {
	test('emits nothing from the past and starts from the service clock, not the host clock', async () => {
		const trigger = rig.harness({ events: ALL_EVENTS });
		const outcome = await trigger.poll();
		expect(outcome).toMatchObject({ items: [], emitted: false });
		const stored = trigger.stored as { pages: { cursor: string }; sources: { cursor: string } };
		// The newest seeded page change and source extraction, in 2026 on the simulator's clock.
		const newestPage = Math.max(
			...control()
				.store.data.pages.filter((p) => p.status !== 'archived')
				.map((p) => p.updatedAt),
		);
		expect(Date.parse(stored.pages.cursor)).toBe(newestPage);
		expect(Date.parse(stored.sources.cursor)).toBeLessThan(SEED_NOW);
		// Old pages and sources stay quiet on the next poll too.
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('an empty result at activation still lets the first new page through', async () => {
		for (const page of control().store.data.pages) control().archivePage(page.id);
		const trigger = await activated({ events: ['pageCreated'] });
		expect((trigger.stored as { pages: { cursor: unknown } }).pages.cursor).not.toBeUndefined();
		control().advance(1000);
		const page = control().createPage({ title: 'First page ever' });
		expect(await pollOk(trigger)).toEqual([
			expect.objectContaining({ event: 'pageCreated', id: page.id }),
		]);
	});
});

describe('events', () => {
	test('Page Created, Page Updated and Page Published, oldest first, one item each', async () => {
		const trigger = await activated();
		control().advance(1000);
		const a = control().createPage({ title: 'Alpha' });
		control().advance(1000);
		const b = control().createPage({ title: 'Beta', status: 'published' });
		expect(await pollOk(trigger)).toEqual([
			expect.objectContaining({ event: 'pageCreated', id: a.id }),
			expect.objectContaining({ event: 'pageCreated', id: b.id }),
			expect.objectContaining({ event: 'pagePublished', id: b.id }),
		]);
		control().advance(1000);
		control().updatePage(a.id, { content: 'New text' });
		expect(await pollOk(trigger)).toEqual([
			expect.objectContaining({ event: 'pageUpdated', id: a.id }),
		]);
		control().advance(1000);
		control().publishPage(a.id);
		const events = await pollOk(trigger);
		expect(events.map((e) => e.event)).toEqual(['pageUpdated', 'pagePublished']);
		expect(events[1].record).toMatchObject({ id: a.id, version: 1, status: 'published' });
	});

	test('the item carries the event name and the page as the list returns it', async () => {
		const trigger = await activated({ events: ['pageCreated'] });
		control().advance(5);
		const page = control().createPage({ title: 'Shape check' });
		const outcome = await trigger.poll();
		expect(outcome.items).toHaveLength(1);
		const json = outcome.items[0].json as { event: string; page: Record<string, unknown> };
		expect(json.event).toBe('pageCreated');
		expect(json.page).toMatchObject({
			id: page.id,
			title: 'Shape check',
			status: 'draft',
			version: null,
		});
		expect(json.page).not.toHaveProperty('content');
	});

	test('Page Published compares versions: a second publication in the same millisecond is still new', async () => {
		const trigger = await activated({ events: ['pagePublished'] });
		const { published } = control().fixtures().pages;
		control().advance(1000);
		control().updatePage(published.id, { content: 'v next', status: 'published' });
		const first = await pollOk(trigger);
		expect(first).toEqual([expect.objectContaining({ event: 'pagePublished', id: published.id })]);
		const version = first[0].record.version as number;
		// Same timestamp as the publication just seen: only the version tells them apart.
		control().updatePage(published.id, { content: 'v next + 1', status: 'published' });
		const second = await pollOk(trigger);
		expect(second).toEqual([expect.objectContaining({ event: 'pagePublished', id: published.id })]);
		expect(second[0].record.version).toBe(version + 1);
	});

	test('an edit after a publication is an update, not a new publication', async () => {
		const trigger = await activated({ events: ['pagePublished', 'pageUpdated'] });
		const { published } = control().fixtures().pages;
		control().advance(1000);
		control().updatePage(published.id, { title: 'Retitled draft' });
		expect((await pollOk(trigger)).map((e) => e.event)).toEqual(['pageUpdated']);
	});

	test('Source Ready fires once when extraction finishes', async () => {
		const trigger = await activated({ events: ['sourceReady'] });
		control().advance(1000);
		const source = control().createSource({ url: 'https://example.com/new-doc', title: 'New doc' });
		expect(await pollOk(trigger)).toEqual([]);
		control().advance(1000);
		control().setSourceStatus(source.id, 'ready');
		const { googleDriveProcessing } = control().fixtures().sources;
		control().setSourceStatus(googleDriveProcessing.id, 'ready');
		const events = await pollOk(trigger);
		expect(events.map((e) => [e.event, e.id])).toEqual([
			['sourceReady', source.id],
			['sourceReady', googleDriveProcessing.id],
		]);
		expect(events[0].record).toMatchObject({ status: 'ready' });
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('pages sharing one timestamp across polls: each emitted once', async () => {
		const trigger = await activated({ events: ['pageCreated'] });
		control().advance(1000);
		const a = control().createPage({ title: 'Same instant A' });
		expect(await pollOk(trigger)).toEqual([expect.objectContaining({ id: a.id })]);
		// The clock does not move: B has exactly A's timestamp, which is also the cursor.
		const b = control().createPage({ title: 'Same instant B' });
		expect(await pollOk(trigger)).toEqual([expect.objectContaining({ id: b.id })]);
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('a poll repeated with the same state emits nothing the second time', async () => {
		const trigger = await activated();
		control().advance(1000);
		control().createPage({ title: 'Once', status: 'published' });
		expect(await pollOk(trigger)).toHaveLength(2);
		expect(await pollOk(trigger)).toEqual([]);
		expect(await pollOk(trigger)).toEqual([]);
	});
});

describe('filters and options', () => {
	test('filters go to the service under its parameter names and narrow the events', async () => {
		const { folders, skills, apiUser } = control().fixtures();
		const parameters = {
			events: ['pageCreated', 'sourceReady'],
			filters: {
				folder: { __rl: true, mode: 'list', value: folders.sales.id },
				skill: { __rl: true, mode: 'id', value: skills.objection.id },
				owner: { __rl: true, mode: 'id', value: apiUser.id },
				status: 'draft',
				titleContains: 'Pricing',
			},
		};
		const trigger = await activated(parameters);
		control().advance(1000);
		const match = control().createPage({
			title: 'Pricing playbook',
			folderIds: [folders.sales.id],
			skillIds: [skills.objection.id],
		});
		control().createPage({
			title: 'Pricing elsewhere',
			folderIds: [folders.onboarding.id],
			skillIds: [skills.objection.id],
		});
		control().createPage({
			title: 'Unrelated',
			folderIds: [folders.sales.id],
			skillIds: [skills.objection.id],
		});
		const source = control().createSource({
			url: 'https://example.com/pricing-2',
			title: 'Pricing sheet',
			folderIds: [folders.sales.id],
		});
		control().setSourceStatus(source.id, 'ready');
		const other = control().createSource({
			url: 'https://example.com/other',
			title: 'Pricing other',
			folderIds: [folders.onboarding.id],
		});
		control().setSourceStatus(other.id, 'ready');
		control().clearRequests();

		const events = await pollOk(trigger);
		expect(events.map((e) => [e.event, e.id])).toEqual([
			['pageCreated', match.id],
			['sourceReady', source.id],
		]);
		expect(listRequests()[0].query).toMatchObject({
			folder_id: folders.sales.id,
			skill_id: skills.objection.id,
			owner_id: apiUser.id,
			status: 'draft',
			query: 'Pricing',
			sort: 'updated_at',
		});
		const sourceQuery = control().requests({ path: '/knowledge-hub/sources' })[0].query;
		expect(sourceQuery).toMatchObject({
			folder_id: folders.sales.id,
			query: 'Pricing',
			status: 'ready',
		});
		expect(sourceQuery).not.toHaveProperty('owner_id');
	});

	test('an Owner that is not a user ID is refused naming the filter, before any request', async () => {
		const trigger = rig.harness({
			events: ['pageCreated'],
			filters: { owner: { __rl: true, mode: 'id', value: '={{ "jane@acme.com" }}' } },
		});
		const outcome = await trigger.poll();
		expect(outcome.error?.message).toBe(
			'Filters → Owner: must be a user ID (letters, digits, - and _), got "jane@acme.com"',
		);
		expect(control().requests()).toHaveLength(0);
	});

	test('a malformed folder id is refused before any request', async () => {
		const trigger = rig.harness({
			events: ['pageCreated'],
			filters: { folder: { __rl: true, mode: 'id', value: 'not-a-uuid' } },
		});
		const outcome = await trigger.poll();
		expect(outcome.error?.message).toMatch(/Folder.*UUID/i);
		expect(control().requests()).toHaveLength(0);
	});

	test('Fetch Full Record returns the page with its published content and the source with its text', async () => {
		const trigger = await activated({
			events: ['pagePublished', 'pageUpdated', 'sourceReady'],
			options: { fetchFull: true },
		});
		control().advance(1000);
		const page = control().createPage({
			title: 'Full',
			content: '# Body text',
			status: 'published',
		});
		const source = control().createSource({
			url: 'https://example.com/full',
			title: 'Full source',
		});
		control().setSourceStatus(source.id, 'ready');
		control().clearRequests();
		const events = await pollOk(trigger);
		expect(events.map((e) => e.event)).toEqual(['pagePublished', 'sourceReady']);
		expect(events[0].record).toMatchObject({ id: page.id, content: '# Body text', sources: [] });
		expect(typeof events[1].record.content).toBe('string');
		expect(control().requests({ path: `/knowledge-hub/pages/${page.id}` })).toHaveLength(1);
		expect(control().requests({ path: `/knowledge-hub/sources/${source.id}` })[0].query).toEqual({
			include: 'content',
		});
	});
});

describe('manual test run', () => {
	test('returns the most recent matching page and leaves the stored position alone', async () => {
		const trigger = await activated({ events: ['pagePublished'] });
		const before = trigger.stored;
		control().advance(1000);
		const draft = control().createPage({ title: 'Draft only' });
		const outcome = await trigger.poll('manual');
		expect(outcome.error).toBeUndefined();
		const events = eventsOf(outcome.items);
		expect(events).toHaveLength(1);
		expect(events[0].event).toBe('pagePublished');
		expect(events[0].id).not.toBe(draft.id);
		expect(events[0].record.version).not.toBeNull();
		expect(trigger.stored).toEqual(before);
		// The next real poll still sees changes since the position, not since the test run.
		control().advance(1000);
		control().publishPage(draft.id);
		expect(await pollOk(trigger)).toEqual([
			expect.objectContaining({ event: 'pagePublished', id: draft.id }),
		]);
	});

	test('says clearly when nothing matches', async () => {
		const trigger = rig.harness({
			events: ['pageCreated'],
			filters: { titleContains: 'no page has this title' },
		});
		const outcome = await trigger.poll('manual');
		expect(outcome.error?.message).toBe('No recent Knowledge Hub page or source to show');
	});
});

describe('errors and large bursts, millisecond timestamps', () => {
	// Rows a millisecond apart: the read's page-by-page mechanics, each row at its own time.
	beforeEach(() => control().setTimestampPrecision('millisecond'));

	test('a burst of 250 changes is read in four list requests, oldest first, nothing lost', async () => {
		const trigger = await activated({ events: ['pageCreated'] });
		const ids: string[] = [];
		for (let i = 0; i < 250; i++) {
			if (i % 3 === 0) control().advance(1);
			ids.push(control().createPage({ title: `Burst ${i}` }).id);
		}
		const events = await pollOk(trigger);
		expect(events.map((e) => e.id)).toEqual(ids);
		const pages = listRequests().map((r) => r.query.page);
		// Page 1 of the whole range, then the part below its newest timestamp from its last page back.
		expect(pages).toEqual(['1', '3', '2', '1']);
	});

	test('a poll failing midway emits nothing and leaves the position; the next poll catches up exactly', async () => {
		const trigger = await activated({ events: ['pageCreated', 'pageUpdated'] });
		const before = trigger.stored;
		const ids: string[] = [];
		for (let i = 0; i < 180; i++) {
			control().advance(1);
			ids.push(control().createPage({ title: `Midway ${i}` }).id);
		}
		// The second list request of the poll fails for good (every retry answers 500).
		rig.proxy.onRequest((count) => {
			if (count === 2) control().failNext(4);
		});
		const failed = await trigger.poll();
		expect(failed.error?.message).toMatch(/500/);
		expect(failed.items).toEqual([]);
		expect(trigger.stored).toEqual(before);
		rig.proxy.onRequest(undefined);
		const events = await pollOk(trigger);
		expect(events.map((e) => e.id)).toEqual(ids);
		expect(await pollOk(trigger)).toEqual([]);
		// Real retry pauses plus 180 pages: room for a loaded machine (the limit only stops a hang).
	}, 60_000);

	test('a page changing between two list requests does not make the read skip a row', async () => {
		const trigger = await activated({ events: ['pageCreated', 'pageUpdated'] });
		const ids: string[] = [];
		for (let i = 0; i < 150; i++) {
			control().advance(1);
			ids.push(control().createPage({ title: `Moving ${i}` }).id);
		}
		// Between page 1 and the next list request, an older page is archived and another edited at
		// the newest timestamp: rows shift, the count changes, and the read must start again.
		rig.proxy.onRequest((count) => {
			if (count === 2) {
				control().archivePage(ids[120]);
				control().updatePage(ids[10], { title: 'Edited meanwhile' });
			}
		});
		const events = await pollOk(trigger);
		rig.proxy.onRequest(undefined);
		const created = events.filter((e) => e.event === 'pageCreated').map((e) => e.id);
		// The edited page reports its creation at its new place in time, after the others.
		expect(created).toEqual([...ids.filter((id) => id !== ids[120] && id !== ids[10]), ids[10]]);
		// The read that saw the count change (page 1, then the part below the newest time from its last
		// page back), then the same again, settled.
		expect(listRequests().map((r) => r.query.page)).toEqual(['1', '2', '1', '1', '2', '1']);
		expect(events.filter((e) => e.event === 'pageUpdated').map((e) => e.id)).toEqual([ids[10]]);
	});

	test('with a slow service the poll emits the oldest part by its deadline and the next polls finish the rest', async () => {
		// n8n 2.41's durable scheduler: a 36 s budget; the service takes 10 s a request (virtual time).
		const trigger = rig.harness({ events: ['pageCreated'] }, { pollTimeoutMs: 45_000 });
		await trigger.poll();
		const ids: string[] = [];
		for (let i = 0; i < 330; i++) ids.push(control().createPage({ title: `Slow ${i}` }).id);
		rig.slow.start(10_000);
		const seen: string[] = [];
		const counts: number[] = [];
		for (let round = 0; round < 8 && seen.length < ids.length; round++) {
			const outcome = await trigger.poll();
			expect(outcome.error).toBeUndefined();
			expect(outcome.abandoned).toBeUndefined();
			counts.push(outcome.items.length);
			seen.push(...eventsOf(outcome.items).map((e) => e.id));
		}
		expect(seen).toEqual(ids);
		// Not in one poll: the oldest part first.
		expect(counts[0]).toBeLessThan(ids.length);
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('the stored state stays small however many changes pass', async () => {
		const trigger = await activated({ events: ALL_EVENTS });
		// Some 200 list requests (each poll reads the 2-minute overlap again): the per-key pace's waits
		// move the host's clock only; the service's stands still between the rounds 10 s apart.
		rig.slow.start(0);
		virtualTime.clock = undefined;
		for (let round = 0; round < 12; round++) {
			for (let i = 0; i < 250; i++) control().createPage({ title: `Load ${round}-${i}` });
			await pollOk(trigger);
			control().advance(10_000);
		}
		const stored = trigger.stored as { pages: { seen: Record<string, string>; floor?: string } };
		expect(JSON.stringify(stored.pages.seen).length).toBeLessThanOrEqual(SEEN_MAX_BYTES);
		// 3,000 pages inside the overlap window outgrow the bound: the window narrows instead.
		expect(stored.pages.floor).toBeDefined();
		expect(JSON.stringify(trigger.stored).length).toBeLessThan(SEEN_MAX_BYTES + 1000);
		// 3,000 pages through n8n's engine is CPU work: with two busy processes beside it on 2 cores it
		// ran past 90 s (issue 41). The limit only stops a hung poll; the assertions are about size.
	}, 300_000);

	test('n8n 1.x persistence (saved only when the poll emits, restarts in between) gives the same events', async () => {
		const trigger = await activated({ events: ['pageCreated', 'pagePublished'] }, 'emit-only');
		control().advance(1000);
		const a = control().createPage({ title: 'Legacy A' });
		expect(await pollOk(trigger)).toEqual([expect.objectContaining({ id: a.id })]);
		const saved = trigger.stored;
		control().updatePage(a.id, { title: 'Only an update' });
		expect(await pollOk(trigger)).toEqual([]);
		// Nothing was emitted, so nothing was saved: a restart goes back to the last emitting poll.
		expect(trigger.stored).toEqual(saved);
		trigger.restart();
		expect(await pollOk(trigger)).toEqual([]);
		control().publishPage(a.id);
		trigger.restart();
		expect(await pollOk(trigger)).toEqual([
			expect.objectContaining({ event: 'pagePublished', id: a.id }),
		]);
		trigger.restart();
		expect(await pollOk(trigger)).toEqual([]);
	});
});

describe('second-precision timestamps (the deployed service)', () => {
	test('issue 11 reproduction: an edit to the newest second during a multi-page read loses no creation', async () => {
		const trigger = await activated({ events: ['pageCreated'] });
		const ids: string[] = [];
		for (let i = 0; i < 250; i++) {
			control().advance(1200);
			ids.push(control().createPage({ title: `Spaced ${i}` }).id);
		}
		// Just before the poll's second list request, a page on list page 2 is edited: its updated_at
		// becomes the newest row's (same second), so it moves to the front and every row behind shifts.
		rig.proxy.onRequest((count) => {
			if (count === 2) control().updatePage(ids[120], { title: 'Edited during the read' });
		});
		const first = await pollOk(trigger);
		rig.proxy.onRequest(undefined);
		const second = await pollOk(trigger);
		const created = [...first, ...second].filter((e) => e.event === 'pageCreated').map((e) => e.id);
		expect(created).toHaveLength(250);
		expect(new Set(created)).toEqual(new Set(ids));
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('more than one list page of rows in one second: read once that second is over, each once', async () => {
		const trigger = await activated({ events: ['pageCreated', 'pageUpdated'] });
		control().advance(1000);
		const ids: string[] = [];
		for (let i = 0; i < 150; i++) ids.push(control().createPage({ title: `Same second ${i}` }).id);
		// The service's second may still be running: the first poll leaves those rows for the next.
		const first = await pollOk(trigger);
		const second = await pollOk(trigger);
		expect([...first, ...second].map((e) => e.id).sort()).toEqual([...ids].sort());
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('a service clock stepping back by less than the overlap window loses nothing', async () => {
		const trigger = await activated({ events: ['pageCreated'] });
		control().advance(60_000);
		const a = control().createPage({ title: 'Before the step' });
		expect((await pollOk(trigger)).map((e) => e.id)).toEqual([a.id]);
		// The service's clock goes back 90 s (less than the two-minute overlap).
		control().setTime(Date.parse(control().now()) - 90_000);
		const b = control().createPage({ title: 'After the step' });
		expect((await pollOk(trigger)).map((e) => e.id)).toEqual([b.id]);
		expect(await pollOk(trigger)).toEqual([]);
	});
});

describe('filters: a page that comes to match', () => {
	test('fires Page Updated, never Page Created or Page Published, however long ago those were', async () => {
		const trigger = await activated({
			events: ['pageCreated', 'pageUpdated', 'pagePublished'],
			filters: { titleContains: 'pricing' },
		});
		control().advance(1000);
		const page = control().createPage({ title: 'Discounts', status: 'published' });
		expect(await pollOk(trigger)).toEqual([]);
		// (A rename within the second of its creation is, for the service, part of its creation.)
		for (const gap of [1000, 60_000, 300_000]) {
			control().advance(gap);
			control().updatePage(page.id, { title: `Pricing ${gap}` });
			const events = await pollOk(trigger);
			expect(events.map((e) => e.event)).toEqual(['pageUpdated']);
			control().advance(1000);
			control().updatePage(page.id, { title: `Discounts ${gap}` });
			expect(await pollOk(trigger)).toEqual([]);
		}
	});

	test('a page created or published while matching still fires Page Created and Page Published', async () => {
		const trigger = await activated({
			events: ['pageCreated', 'pagePublished'],
			filters: { titleContains: 'pricing' },
		});
		control().advance(1000);
		const page = control().createPage({ title: 'Pricing FAQ', status: 'published' });
		expect((await pollOk(trigger)).map((e) => [e.event, e.id])).toEqual([
			['pageCreated', page.id],
			['pagePublished', page.id],
		]);
	});
});

describe('filters: a page seen before (issue 30)', () => {
	test('seen as a draft, published and edited before the next read, long after: Page Published v1 still comes', async () => {
		const { folders } = control().fixtures();
		const trigger = await activated({
			events: ['pageUpdated', 'pagePublished'],
			filters: { folder: { __rl: true, mode: 'list', value: folders.sales.id } },
		});
		control().advance(1000);
		const page = control().createPage({ title: 'Draft plan', folderIds: [folders.sales.id] });
		control().advance(1000);
		control().updatePage(page.id, { content: 'first words' });
		expect((await pollOk(trigger)).map((e) => e.event)).toEqual(['pageUpdated']);
		// Another matching page changes three minutes later: the trigger's newest change moves on, more
		// than the two-minute overlap past its last sighting of the draft.
		control().advance(3 * 60_000);
		const other = control().createPage({ title: 'Other', folderIds: [folders.sales.id] });
		control().advance(1000);
		control().updatePage(other.id, { content: 'more' });
		await pollOk(trigger);
		control().advance(1000);
		control().publishPage(page.id);
		control().advance(1000);
		control().updatePage(page.id, { content: 'edited after publishing' });
		const events = await pollOk(trigger);
		expect(events.map((e) => [e.event, e.id, e.record.version])).toEqual(
			expect.arrayContaining([
				['pageUpdated', page.id, 1],
				['pagePublished', page.id, 1],
			]),
		);
		expect(events).toHaveLength(2);
		expect(await pollOk(trigger)).toEqual([]);
	});
});

describe('quota: Max Reads a Day', () => {
	test('polls beyond the quota make no request and lose nothing; 48 a day is a read every 30 minutes', async () => {
		let host = Date.parse('2026-11-23T08:00:00Z');
		const now = jest.spyOn(Date, 'now').mockImplementation(() => host);
		try {
			// The test harness turns the quota off unless a test sets it.
			const trigger = rig.harness({ events: ALL_EVENTS, options: { maxReadsPerDay: 48 } });
			expect((await trigger.poll()).error).toBeUndefined();
			control().clearRequests();
			control().advance(1000);
			const page = control().createPage({ title: 'Paced' });
			for (let minute = 1; minute < 30; minute++) {
				host += 60_000;
				expect(await pollOk(trigger)).toEqual([]);
			}
			expect(control().requests({})).toHaveLength(0);
			host += 60_000;
			expect((await pollOk(trigger)).map((e) => [e.event, e.id])).toEqual([
				['pageCreated', page.id],
			]);
			// One request for pages, one for Source Ready (its first list page is unchanged).
			expect(control().requests({})).toHaveLength(2);
		} finally {
			now.mockRestore();
		}
	});

	test('a bad Max Reads a Day is refused before any request, naming the field', async () => {
		const trigger = rig.harness({ events: ALL_EVENTS, options: { maxReadsPerDay: -5 } });
		const outcome = await trigger.poll();
		expect(outcome.error?.message).toMatch(/Options → Max Reads a Day/);
		expect(control().requests({})).toHaveLength(0);
	});
});
