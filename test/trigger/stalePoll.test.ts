/**
 * A poll that begins from a copy of the state older than the last read's (readGuard.ts). n8n 2.41's
 * durable scheduler gives each Poll Times entry its own job and reads a poll's cursor when its task
 * begins, before the rest of its setup: a poll of another entry may read, write and hand its state to
 * n8n meanwhile. Seen in the real-n8n suite under load (`durable` step, six Poll Times entries): 204
 * sessions and 7 tier changes sent twice. The harness's `prefetched()` takes the copy first, as n8n
 * does, and runs the poll after another has committed.
 */
import type { IDataObject } from 'n8n-workflow';

import { COMMIT_WINDOW_MS } from '../../nodes/WorkspacePracticeTrigger/readGuard';
import { practiceEventsOf, practiceTrigger, scoreSessions } from './practiceSetup';
import { eventsOf, useRig } from './setup';

const rig = useRig();
const control = () => rig.sim.control;

const sessionIds = (items: Parameters<typeof practiceEventsOf>[0]) =>
	practiceEventsOf(items).map((e) => e.id);

describe('a poll whose copy of the state was taken before the last read committed', () => {
	test('Practice Results: sends nothing again; the next poll from the new state goes on', async () => {
		const trigger = await practiceTrigger(rig, ['sessionScored']);
		const first = scoreSessions(rig, 5);
		const stale = trigger.prefetched();
		const read = await trigger.poll();
		expect(sessionIds(read.items)).toEqual(first);
		// The stale copy's poll: the same sessions again before the fix.
		const again = await stale();
		expect(again.error).toBeUndefined();
		expect(sessionIds(again.items)).toEqual([]);
		// What the committed state reads next: the new sessions only, once.
		const next = scoreSessions(rig, 2);
		expect(sessionIds((await trigger.poll()).items)).toEqual(next);
		expect(sessionIds((await trigger.poll()).items)).toEqual([]);
	});

	test('Practice Results: a read n8n never committed is read again once the window has passed', async () => {
		const trigger = await practiceTrigger(rig, ['sessionScored']);
		const ids = scoreSessions(rig, 3);
		// The read's state is dropped (as when n8n loses the poll's lease): the stored copy stays older.
		const before = trigger.stored;
		expect(sessionIds((await trigger.poll()).items)).toEqual(ids);
		const dropped = (trigger as unknown as { persisted: IDataObject }).persisted;
		(trigger as unknown as { persisted: IDataObject }).persisted = before;
		expect(sessionIds((await trigger.poll()).items)).toEqual([]);
		// The window is on n8n's clock (Date.now): a poll that much later reads from the stored copy.
		const realNow = Date.now.bind(Date);
		const later = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + COMMIT_WINDOW_MS);
		expect(sessionIds((await trigger.poll()).items)).toEqual(ids);
		later.mockRestore();
		expect(dropped).not.toEqual(before);
	});

	test('Knowledge Hub: sends nothing again', async () => {
		const trigger = rig.harness({ events: ['pageCreated'] });
		expect((await trigger.poll()).items).toEqual([]);
		control().advance(1000);
		const page = control().createPage({ title: 'Stale copy' }).id;
		const stale = trigger.prefetched();
		expect(eventsOf((await trigger.poll()).items).map((e) => e.id)).toEqual([page]);
		expect((await stale()).items).toEqual([]);
		expect((await trigger.poll()).items).toEqual([]);
	});
});
