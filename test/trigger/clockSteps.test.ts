/**
 * Issue 21: a service clock that steps back, and the size of the stored state after a crowded second.
 * Second-precision timestamps throughout, as the deployed service writes them.
 */
import type { PollHarness } from '../../n8n-harness/pollHarness';
import { SEEN_MAX_BYTES } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/changes';
import { eventsOf, useRig } from './setup';
import { virtualTime } from './slowService';

// Sleeps on virtual time where a test starts it (rig.slow): the per-key pace's waits take no wall time.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

const ALL_EVENTS = ['pageCreated', 'pageUpdated', 'pagePublished', 'sourceReady'];

const rig = useRig();

const control = () => rig.sim.control;
const stepBack = (ms: number) => control().setTime(Date.parse(control().now()) - ms);

async function activated(events: string[]): Promise<PollHarness> {
	const trigger = rig.harness({ events });
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.items).toEqual([]);
	return trigger;
}

async function pollOk(trigger: PollHarness) {
	const outcome = await trigger.poll();
	expect(outcome.error).toBeUndefined();
	return eventsOf(outcome.items);
}

const titles = (events: Awaited<ReturnType<typeof pollOk>>) =>
	events.map((e) => `${e.event} ${String(e.record.title)}`);

describe('a service clock stepping back', () => {
	test.each([1, 5, 30, 90])(
		'issue 21 reproduction: after a %i s step back the next edit of a page already seen is emitted once',
		async (seconds) => {
			const trigger = await activated(['pageUpdated']);
			control().advance(1000);
			const page = control().createPage({ title: 'P' });
			control().advance(1000);
			control().updatePage(page.id, { title: 'P edit 1' });
			expect(titles(await pollOk(trigger))).toEqual(['pageUpdated P edit 1']);
			stepBack(seconds * 1000);
			control().updatePage(page.id, { title: 'P edit 2' });
			expect(titles(await pollOk(trigger))).toEqual(['pageUpdated P edit 2']);
			// The same rows read again are stale: nothing now, nothing five minutes later.
			expect(await pollOk(trigger)).toEqual([]);
			control().advance(5 * 60_000);
			expect(await pollOk(trigger)).toEqual([]);
		},
	);

	test('a content-only edit after a step back (same title, older timestamp) is emitted once', async () => {
		const trigger = await activated(['pageUpdated']);
		control().advance(1000);
		const page = control().createPage({ title: 'Body only' });
		control().advance(5000);
		control().updatePage(page.id, { content: 'First body' });
		expect(await pollOk(trigger)).toHaveLength(1);
		stepBack(3000);
		control().updatePage(page.id, { content: 'Second body' });
		const events = await pollOk(trigger);
		expect(events.map((e) => [e.event, e.id])).toEqual([['pageUpdated', page.id]]);
		expect(Date.parse(String(events[0].record.updated_at))).toBe(Date.parse(control().now()));
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('Page Published and Source Ready follow the same rule: a new version or extraction stamped earlier still fires', async () => {
		const trigger = await activated(['pagePublished', 'sourceReady']);
		control().advance(1000);
		const page = control().createPage({ title: 'Guide', status: 'published' });
		const source = control().createSource({ url: 'https://example.com/steps', title: 'Steps' });
		control().setSourceStatus(source.id, 'ready');
		expect((await pollOk(trigger)).map((e) => e.event)).toEqual(['pagePublished', 'sourceReady']);
		stepBack(30_000);
		control().publishPage(page.id);
		control().setSourceStatus(source.id, 'processing');
		control().setSourceStatus(source.id, 'ready');
		const events = await pollOk(trigger);
		expect(events.map((e) => [e.event, e.id])).toEqual([
			['pagePublished', page.id],
			['sourceReady', source.id],
		]);
		expect(events[0].record.version).toBe(2);
		expect(await pollOk(trigger)).toEqual([]);
	});

	test('beyond the overlap window an edit of a page already seen can be missed, never repeated', async () => {
		const trigger = await activated(['pageCreated', 'pageUpdated']);
		control().advance(1000);
		const page = control().createPage({ title: 'Far' });
		control().advance(1000);
		control().updatePage(page.id, { title: 'Far edit 1' });
		expect(titles(await pollOk(trigger))).toEqual([
			'pageCreated Far edit 1',
			'pageUpdated Far edit 1',
		]);
		// Three minutes back: older than the two-minute overlap behind the newest change seen.
		stepBack(180_000);
		control().updatePage(page.id, { title: 'Far edit 2' });
		expect(await pollOk(trigger)).toEqual([]);
		// Once the service's clock is past the newest change seen again, edits are emitted as usual.
		control().advance(181_000);
		control().updatePage(page.id, { title: 'Far edit 3' });
		expect(titles(await pollOk(trigger))).toEqual(['pageUpdated Far edit 3']);
	});
});

describe('a crowded second: the stored state stays within its bound', () => {
	test.each([600, 2000])(
		'%i creations, then as many edits, in one second: each emitted once, state bounded',
		async (count) => {
			const trigger = await activated(ALL_EVENTS);
			// Over 100 list requests: the per-key pace's waits move the host's clock only.
			rig.slow.start(0);
			virtualTime.clock = undefined;
			control().advance(1000);
			const ids: string[] = [];
			for (let i = 0; i < count; i++) ids.push(control().createPage({ title: `Crowd ${i}` }).id);
			// The second may still be running for the service: its rows come one poll late.
			const created = [...(await pollOk(trigger)), ...(await pollOk(trigger))];
			expect(created.map((e) => e.id).sort()).toEqual([...ids].sort());
			const afterCreations = JSON.stringify(trigger.stored).length;

			control().advance(1000);
			for (const id of ids) control().updatePage(id, { title: `Crowd edited ${id}` });
			const edited = [...(await pollOk(trigger)), ...(await pollOk(trigger))];
			expect(edited.map((e) => e.event)).toEqual(ids.map(() => 'pageUpdated'));
			expect(new Set(edited.map((e) => e.id)).size).toBe(count);
			const afterEdits = JSON.stringify(trigger.stored).length;
			// The same rows read again bring nothing, whatever was dropped to keep the bound.
			expect(await pollOk(trigger)).toEqual([]);
			control().advance(5 * 60_000);
			expect(await pollOk(trigger)).toEqual([]);

			for (const bytes of [afterCreations, afterEdits])
				expect(bytes).toBeLessThanOrEqual(SEEN_MAX_BYTES + 500);
			process.stdout.write(
				`stored state, ${count} changes in one second: ${afterCreations} bytes after the creations, ${afterEdits} after the edits (bound ${SEEN_MAX_BYTES} bytes of keys per stream)\n`,
			);
		},
		120_000,
	);
});
