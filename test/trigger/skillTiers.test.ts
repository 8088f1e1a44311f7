/**
 * Skill Tiers → Tier Changed, story by story (issue 39, TIERS-CONTRACT.md): the first poll records;
 * members who practised are read at the next read; calls are found by the sweep; editing the skills or
 * the filters baselines only what is new; counts before and after are the readings' own; readings are
 * pinned to one instant across pages; members entering the scope start from a baseline.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runNode } from '../../n8n-harness/runNode';
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
const DAY = 24 * HOUR;
const control = () => rig.sim.control;
const fixtures = () => control().fixtures();
const negotiation = () => fixtures().skills.negotiation.id;
const objection = () => fixtures().skills.objection.id;

/** Scored sessions on Renewal Negotiation (it evaluates Negotiation only), `hoursAgo` back. */
const practise = (who: string, score: number, ...hoursAgo: number[]) => {
	for (const h of hoursAgo)
		control().addSession({
			userEmail: who,
			scenario: 'renewal-negotiation',
			score,
			lateByMs: h * HOUR,
		});
};
/** Calls on Negotiation: observations no list shows. */
const call = (who: string, score: number, ...hoursAgo: number[]) => {
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
		skillTierOptions: { maxReadsPerDay: 0 },
		...extra,
	} as never);

const moves = (items: INodeExecutionData[]) =>
	items.map(({ json }) => [
		(json.member as IDataObject).email,
		(json.skill as IDataObject).id === negotiation() ? 'negotiation' : 'other',
		json.tier_before,
		json.tier_after,
		json.new,
	]);

test('first poll records (the skills and a count of the members); the next read emits the members who practised, once', async () => {
	practise('bob@acme.com', 40, 300, 200, 100);
	const trigger = tiersTrigger();
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(first.items).toEqual([]);
	expect(
		control()
			.requests()
			.map((r) => r.path),
	).toEqual(['/skills', '/workspace/members']);
	control().clearRequests();

	rig.clock.advance(3 * HOUR);
	practise('bob@acme.com', 100, 2, 2, 1, 1, 0, 0);
	practise('carla@acme.com', 95, 1, 1, 0);
	practise('support@exec.com', 100, 1, 1, 1); // a system user: left out by default
	rig.clock.advance(HOUR);
	const read = await trigger.poll();
	expect(read.error).toBeUndefined();
	expect(moves(read.items)).toEqual([
		['carla@acme.com', 'negotiation', 'insufficient_data', 'excellent', true],
		['bob@acme.com', 'negotiation', 'needs_work', expect.any(String), false],
	]);
	const [, bob] = read.items.map((i) => i.json);
	expect(bob).toMatchObject({ direction: 'up', event: 'tierChanged' });
	expect(bob.skill).toEqual({ id: negotiation(), name: expect.any(String) });
	const paths = control()
		.requests()
		.map((r) => r.path);
	expect(paths).toEqual([
		'/sessions',
		'/scenarios',
		`/skills/${negotiation()}/proficiency`,
		`/skills/${negotiation()}/proficiency`, // Carla is new to the skill: read as of activation
		'/skills', // the skill's name, for the records
	]);
	const [sessions] = control().requests();
	expect(sessions.query).toMatchObject({ exclude_system_users: 'true', sorting: '-created_at' });

	// Sessions are read from an hour before the last read: those members are read again, no repeat.
	rig.clock.advance(2 * HOUR);
	control().clearRequests();
	expect((await trigger.poll()).items).toEqual([]);
	const paths2 = control()
		.requests()
		.map((r) => r.path);
	expect(paths2).toEqual(['/sessions', '/scenarios', `/skills/${negotiation()}/proficiency`]);
	// Nothing new: one request.
	rig.clock.advance(2 * HOUR);
	control().clearRequests();
	expect((await trigger.poll()).items).toEqual([]);
	expect(control().requests().length).toBe(1);
});

test('story 1: adding a skill to the selection keeps the other skills changes', async () => {
	practise('bob@acme.com', 60, 30, 29, 28);
	const trigger = tiersTrigger();
	expect((await trigger.poll()).items).toEqual([]); // activation: Bob developing
	rig.clock.advance(4 * HOUR);
	practise('bob@acme.com', 100, 0, 0, 0); // now proficient
	rig.clock.advance(HOUR);
	trigger.setParameters({
		triggerOn: 'skillTiers',
		skillTierEvents: ['tierChanged'],
		skillTierSkills: [negotiation(), objection()],
		skillTierOptions: { maxReadsPerDay: 0 },
	});
	const read = await trigger.poll();
	expect(read.error).toBeUndefined();
	expect(moves(read.items)).toEqual([
		['bob@acme.com', 'negotiation', 'developing', 'proficient', false],
	]);
	// The added skill starts from its baseline: Gina's standing there is no event.
	rig.clock.advance(HOUR);
	expect((await trigger.poll()).items).toEqual([]);
});

test('story 1: editing the group filter keeps the history of members who stay in scope', async () => {
	const { customerSuccess } = fixtures().groups;
	const inGroup = control().store.data.users.find(
		(u) => u.member && u.groupIds.includes(customerSuccess.id) && !u.email.endsWith('@exec.com'),
	)!;
	practise(inGroup.email, 60, 30, 29, 28);
	const trigger = tiersTrigger();
	await trigger.poll();
	rig.clock.advance(HOUR);
	practise(inGroup.email, 100, 0, 0, 0);
	trigger.setParameters({
		triggerOn: 'skillTiers',
		skillTierEvents: ['tierChanged'],
		skillTierSkills: [negotiation()],
		skillTierFilters: { group_ids: [customerSuccess.id] },
		skillTierOptions: { maxReadsPerDay: 0 },
	});
	const read = await trigger.poll();
	expect(moves(read.items)).toEqual([
		[inGroup.email, 'negotiation', 'developing', 'proficient', false],
	]);
});

test('story 2: observation_count_before is the count of the reading compared', async () => {
	practise('bob@acme.com', 40, 50, 49, 48, 47, 46);
	const trigger = tiersTrigger();
	await trigger.poll();
	rig.clock.advance(HOUR);
	practise('bob@acme.com', 100, 0, 0, 0, 0, 0);
	const [event] = (await trigger.poll()).items.map((i) => i.json);
	expect(event).toMatchObject({
		tier_before: 'needs_work',
		observation_count_before: 5,
		observation_count_after: 10,
		new: false,
	});
	expect(event.score_before).toBe(40);
});

test('calls alone: found by the sweep within Sweep Every (Days), compared with the last reported tier', async () => {
	call('bob@acme.com', 40, 300, 200, 100);
	const trigger = tiersTrigger({ skillTierOptions: { maxReadsPerDay: 0, sweepDays: 2 } });
	const activated = new Date(Math.floor(rig.clock.now() / 1000) * 1000).toISOString();
	await trigger.poll();
	rig.clock.advance(HOUR);
	call('bob@acme.com', 100, 0, 0, 0, 0, 0, 0);
	rig.clock.advance(HOUR);
	expect((await trigger.poll()).items).toEqual([]); // no session: nothing read yet
	rig.clock.advance(DAY);
	const swept = await trigger.poll(); // a day of credit: 1 skill / 2 days → the overdue rule or credit
	const later = swept.items.length ? swept : (rig.clock.advance(DAY), await trigger.poll());
	expect(moves(later.items)).toEqual([
		['bob@acme.com', 'negotiation', 'needs_work', expect.any(String), false],
	]);
	expect(later.items[0].json.from).toBe(activated); // the baseline compared
	rig.clock.advance(3 * DAY);
	expect((await trigger.poll()).items).toEqual([]); // swept again: no repeat
});

test('point 6: a member who joins a filtered group with observations starts from a baseline; a first tier there is new', async () => {
	const { customerSuccess } = fixtures().groups;
	const outsider = control().store.data.users.find(
		(u) => u.member && !u.groupIds.includes(customerSuccess.id) && !u.email.endsWith('@exec.com'),
	)!;
	const newcomer = control().store.data.users.find(
		(u) =>
			u.member &&
			u !== outsider &&
			!u.groupIds.includes(customerSuccess.id) &&
			!u.email.endsWith('@exec.com'),
	)!;
	practise(outsider.email, 40, 50, 49, 48);
	const trigger = tiersTrigger({
		skillTierFilters: { group_ids: [customerSuccess.id] },
		skillTierOptions: { maxReadsPerDay: 0, sweepDays: 1 },
	});
	await trigger.poll();
	rig.clock.advance(DAY);
	await trigger.poll(); // the sweep: the skill is read in full
	outsider.groupIds.push(customerSuccess.id);
	newcomer.groupIds.push(customerSuccess.id);
	rig.clock.advance(HOUR);
	practise(outsider.email, 100, 0, 0, 0, 0, 0, 0); // moved while entering: a baseline, no event
	practise(newcomer.email, 90, 0, 0, 0); // no observation before: a first tier
	const read = await trigger.poll();
	expect(moves(read.items)).toEqual([
		[newcomer.email, 'negotiation', 'insufficient_data', 'excellent', true],
	]);
	// Leaving and coming back: a baseline again.
	rig.clock.advance(HOUR);
	expect((await trigger.poll()).items).toEqual([]);
});

test('story 3: a page boundary under a concurrent write, 130 members, each read once (trigger and Get Tier Changes)', async () => {
	const { store } = control();
	const now = rig.clock.now();
	for (let n = 0; n < 130; n++) {
		store.data.users.push({
			id: `rep-${String(n).padStart(3, '0')}`,
			email: `rep${String(n).padStart(3, '0')}@acme.com`,
			first_name: 'Rep',
			last_name: String(n),
			member: true,
			role: 'member',
			joinedAt: now - 90 * DAY,
			groupIds: [],
		});
		// Distinct scores, all developing: the service lists them by score, 100 a page.
		for (const h of [300, 200, 100])
			store.data.observations.push({
				userId: `rep-${String(n).padStart(3, '0')}`,
				skillId: negotiation(),
				score: 60 + n / 10,
				at: now - h * HOUR,
				kind: 'call',
			});
	}
	const ranked101 = 'rep029'; // 130 - 101: the 101st highest score
	const trigger = tiersTrigger({ skillTierOptions: { maxReadsPerDay: 0, sweepDays: 1 } });
	await trigger.poll();
	rig.clock.advance(DAY);
	await trigger.poll(); // the first sweep records every member
	rig.clock.advance(DAY);
	// Between page 1 and page 2 of the next sweep, a call moves the 101st member up (still developing).
	const logCall = () =>
		control().addObservation({
			userEmail: `${ranked101}@acme.com`,
			skillId: negotiation(),
			score: 74,
			at: rig.clock.now(),
		});
	let pages = 0;
	rig.proxy.onRequest((_, req) => {
		if (!req.url?.includes('/proficiency') || req.url.includes('user_ids')) return;
		pages++;
		if (pages === 2) {
			rig.clock.advance(1000);
			logCall();
		}
	});
	const read = await trigger.poll();
	rig.proxy.onRequest(undefined);
	expect(read.error).toBeUndefined();
	expect(pages).toBeGreaterThanOrEqual(2);
	expect(read.items).toEqual([]); // nobody drops out, nobody comes back "new"
	rig.clock.advance(DAY);
	expect((await trigger.poll()).items).toEqual([]);

	// Get Tier Changes reading every member: the 101st listed once, no one twice.
	rig.clock.advance(HOUR);
	let listed = 0;
	rig.proxy.onRequest((_, req) => {
		if (!req.url?.includes('/proficiency') || req.url.includes('user_ids')) return;
		listed++;
		if (listed === 2) {
			rig.clock.advance(1000);
			logCall();
		}
	});
	const to = new Date(Math.floor(rig.clock.now() / 1000) * 1000).toISOString();
	const result = await runNode({
		parameters: {
			resource: 'skill',
			operation: 'getTierChanges',
			skillScope: 'one',
			skill: { __rl: true, mode: 'id', value: negotiation() },
			fromDate: new Date(rig.clock.now() - 3 * DAY).toISOString(),
			toDate: to,
			options: { everyMember: true },
			simplify: false,
		},
		credentials: { baseUrl: rig.proxy.baseUrl, apiKey: rig.sim.apiKey },
	});
	rig.proxy.onRequest(undefined);
	expect(result.error).toBeUndefined();
	const members = result.items.map((i) => (i.json.member as IDataObject).id);
	expect(new Set(members).size).toBe(members.length);
});

test.each([
	[{ skillTierSkills: ['not-a-uuid'] }, 'Skill Names or IDs'],
	[{ skillTierEvents: [] }, 'Events: choose at least one tier event'],
	[{ skillTierFilters: { group_ids: 7 } }, 'Group'],
	[{ skillTierOptions: { sweepDays: 0 } }, 'Sweep Every (Days)'],
])('bad input %j fails before any request', async (extra, message) => {
	const outcome = await tiersTrigger(extra).poll();
	expect(outcome.error?.message).toContain(message);
	expect(control().requests()).toEqual([]);
});

test("a session started at the activation's second and scored after it is in the baseline (docs: asked when the member is first read)", async () => {
	practise('bob@acme.com', 80, 300, 200, 100); // proficient before
	const trigger = tiersTrigger();
	const activatedAt = Math.floor(Date.now() / 1000) * 1000;
	expect((await trigger.poll()).items).toEqual([]);
	// Started at the activation's instant, scored ten minutes later: dated at the baseline's instant.
	rig.clock.advance(10 * 60_000);
	control().addSession({
		userEmail: 'bob@acme.com',
		scenario: 'renewal-negotiation',
		score: 0,
		lateByMs: Date.now() - activatedAt,
	});
	// That evening Bob practises again and stays where the baseline put him (developing): no event.
	rig.clock.advance(8 * HOUR);
	practise('bob@acme.com', 60, 0);
	rig.clock.advance(6 * HOUR);
	const read = await trigger.poll();
	expect(read.error).toBeUndefined();
	expect(moves(read.items)).toEqual([]);
	// The bench's day oracle judges the same way (test/bench/dayOracle.test.ts, issue 55).
});
