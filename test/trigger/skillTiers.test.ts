/**
 * Skill Tiers → Tier Changed: the first poll records, the next read (Poll Times, within one read a
 * day) emits each moved tier once, the filters go on the wire, and bad input fails before any request.
 */
import type { IDataObject } from 'n8n-workflow';

import { startRig, type TriggerRig } from './setup';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: async () => {} }));

let rig: TriggerRig;
beforeAll(async () => {
	rig = await startRig();
	jest.spyOn(Date, 'now').mockImplementation(() => rig.clock.now());
});
afterAll(async () => {
	jest.restoreAllMocks();
	await rig.close();
});
beforeEach(() => rig.reset());

const HOUR = 3_600_000;
const control = () => rig.sim.control;
const negotiation = () => control().fixtures().skills.negotiation.id;
const observe = (who: string, score: number, ...hoursAgo: number[]) => {
	for (const h of hoursAgo)
		control().addObservation({
			userEmail: who,
			skillId: negotiation(),
			score,
			at: rig.clock.now() - h * HOUR,
		});
};

const tiersTrigger = (extra: IDataObject = {}) =>
	rig.harness({
		triggerOn: 'skillTiers',
		skillTierEvents: ['tierChanged'],
		skillTierSkills: [negotiation()],
		skillTierFilters: { exclude_system_users: true },
		...extra,
	} as never);

/** The clock at the next `hour`:30 in the trigger's time zone (UTC in these runs, checked). */
function toNextHour(hour: number, timeZone: string): void {
	expect(timeZone).toBeTruthy();
	const local = (ms: number) =>
		Number(
			new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(ms),
		);
	do rig.clock.advance(HOUR / 2);
	while (local(rig.clock.now()) !== hour);
}

test('first poll records; the next poll (Poll Times Every Day at 6) emits each moved tier once; then nothing until the next day', async () => {
	observe('bob@acme.com', 40, 300, 200, 100);
	observe('support@exec.com', 40, 300, 200, 100);
	const trigger = tiersTrigger();
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.items).toEqual([]);
	expect(
		control()
			.requests()
			.filter((r) => r.path.endsWith('/proficiency')),
	).toHaveLength(1);

	observe('bob@acme.com', 100, 1, 1, 1, 1, 1, 1);
	observe('carla@acme.com', 95, 1, 1, 1);
	observe('support@exec.com', 100, 1, 1, 1, 1, 1, 1);
	toNextHour(6, trigger.workflow.timezone);
	control().clearRequests();
	const read = await trigger.poll();
	expect(read.error).toBeUndefined();
	const events = read.items.map((i) => i.json);
	expect(
		events.map((e) => [
			e.event,
			(e.member as IDataObject).email,
			e.tier_before,
			e.tier_after,
			e.direction,
		]),
	).toEqual([
		// The service's order: highest score first.
		['tierChanged', 'carla@acme.com', 'insufficient_data', 'excellent', 'new'],
		['tierChanged', 'bob@acme.com', 'needs_work', expect.any(String), 'up'],
	]);
	expect(events[0].skill).toEqual({ id: negotiation(), name: expect.any(String) });
	const readings = control()
		.requests()
		.filter((r) => r.path.endsWith('/proficiency'));
	expect(readings.map((r) => r.query)).toEqual([
		{ exclude_system_users: 'true', page: '1', page_size: '100' },
	]);

	rig.clock.advance(HOUR);
	control().clearRequests();
	expect((await trigger.poll()).items).toEqual([]);
	expect(control().requests()).toEqual([]);
});

test.each([
	[{ skillTierOptions: { maxReadsPerDay: 2000 } }, 'Options → Max Reads a Day'],
	[{ skillTierSkills: ['not-a-uuid'] }, 'Skill Names or IDs'],
	[{ skillTierEvents: [] }, 'Events: choose at least one tier event'],
	[{ skillTierFilters: { group_ids: 7 } }, 'Group'],
])('bad input %j fails before any request', async (extra, message) => {
	const outcome = await tiersTrigger(extra).poll();
	expect(outcome.error?.message).toContain(message);
	expect(control().requests()).toEqual([]);
});

test('Options → Max Reads a Day 24 with Poll Times every 30 minutes: a read every hour', async () => {
	observe('bob@acme.com', 40, 300, 200, 100);
	const trigger = tiersTrigger({ skillTierOptions: { maxReadsPerDay: 24 } });
	expect((await trigger.poll()).items).toEqual([]);
	observe('bob@acme.com', 100, 1, 1, 1, 1, 1, 1);
	rig.clock.advance(30 * 60_000);
	control().clearRequests();
	expect((await trigger.poll()).items).toEqual([]);
	expect(control().requests()).toEqual([]);
	rig.clock.advance(30 * 60_000);
	const read = await trigger.poll();
	expect(read.items.map((i) => i.json.direction)).toEqual(['up']);
});
