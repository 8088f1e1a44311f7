/**
 * Issue 55, the busy day's late outcomes: a read that finds more than two pages of new sessions reads
 * them as a backlog, from the page its count names back to page 1. A session scored late sits below the
 * sessions created after it that earlier reads already saw, so that page need not reach it; on a busy
 * day every hourly read was such a backlog, and the late score (and the assignment it completed) waited
 * 3 to 9 hours, until a quiet read walked the window. The backlog read goes on down the list until the
 * count's unseen sessions are found.
 */
import { useRig } from './setup';
import { practiceEventsOf, practiceTrigger } from './practiceSetup';

const rig = useRig();

const control = () => rig.sim.control;
const MINUTE = 60_000;

/** `count` sessions scored at once, a second apart, by one member on one scenario. */
function scoredSessions(count: number, scenario: string): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		control().advance(1000);
		ids.push(control().addSession({ userEmail: 'bob@acme.com', scenario, score: 70 }).id);
	}
	return ids;
}

test('a late score below a backlog read of newer sessions is sent at that read, with its outcome', async () => {
	const fx = control().fixtures();
	const trigger = await practiceTrigger(rig, ['sessionScored', 'assignmentCompleted']);
	control().advance(MINUTE);
	const assignment = control().addAssignment({
		userEmail: 'dev@acme.com',
		scenario: fx.scenarios.coldCall.id,
	});
	// Open at an assignment read (the trigger reads them at every poll here: Hours Between Open Reads 0).
	expect((await trigger.poll()).error).toBeUndefined();
	control().advance(MINUTE);
	// Practised now, scored later: not listed until then.
	const late = control().addSession({
		userEmail: 'dev@acme.com',
		scenario: fx.scenarios.coldCall.id,
	});
	control().advance(MINUTE);
	const seenFirst = scoredSessions(150, fx.scenarios.discoveryCall.id);
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(practiceEventsOf(first.items).map((e) => e.id)).toEqual(seenFirst);

	// The late score, then 250 newer sessions: 251 unseen, 3 pages by the count, but the late one is
	// the 401st row (below the 150 seen ones).
	control().scoreSession(late.id, 90);
	control().advance(MINUTE);
	const newer = scoredSessions(250, fx.scenarios.discoveryCall.id);
	const busy = await trigger.poll();
	expect(busy.error).toBeUndefined();
	const sent = practiceEventsOf(busy.items);
	expect(sent.filter((e) => e.event === 'sessionScored').map((e) => e.id)).toEqual([
		late.id,
		...newer,
	]);
	expect(sent.filter((e) => e.event === 'assignmentCompleted').map((e) => e.id)).toEqual([
		assignment.id,
	]);
	// Nothing left for the next read, nothing twice.
	const next = await trigger.poll();
	expect(next.error).toBeUndefined();
	expect(next.items).toEqual([]);
});

test('a backlog with no late score reads no page below the count', async () => {
	const fx = control().fixtures();
	const trigger = await practiceTrigger(rig, ['sessionScored', 'assignmentCompleted']);
	control().advance(MINUTE);
	scoredSessions(150, fx.scenarios.discoveryCall.id);
	expect((await trigger.poll()).error).toBeUndefined();
	control().advance(MINUTE);
	const newer = scoredSessions(250, fx.scenarios.discoveryCall.id);
	control().clearRequests();
	const busy = await trigger.poll();
	expect(busy.error).toBeUndefined();
	expect(practiceEventsOf(busy.items).map((e) => e.id)).toEqual(newer);
	// The window's first page, then the backlog's pages 3, 2 and 1.
	expect(
		control()
			.requests({ path: '/sessions' })
			.map((r) => r.query.page),
	).toEqual(['1', '3', '2', '1']);
});
