/**
 * Date-only upper bounds cover their whole day (issue 14): "on or before 2026-11-23" includes what
 * happened at 15:00 that day, whether the day comes as a date alone or as n8n's date-time picker
 * gives a clicked day (midnight, no zone). A zone makes the time exact. Every "on or before" field:
 * sessions' and participant analytics' End Date, pages' Updated Before, proficiency's As Of.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../../simulator';
import { json, rl, useSimulator } from './support';

const sim = useSimulator();
const AFTERNOON = '2026-11-23T15:00:00Z';
const PICKED_DAY = '2026-11-23T00:00:00';
const jane = SEED.members[0];

/** A graded session of Jane's on `scenarioId` at `at`; the store is reset before each test. */
function addSession(id: string, scenarioId: string, at: string): void {
	sim.control.store.data.sessions.push({
		id,
		userId: jane.id,
		scenarioId,
		score: 80,
		durationSeconds: 300,
		valid: true,
		programId: null,
		createdAt: Date.parse(at),
	});
}

describe('Session → Get Many: End Date', () => {
	beforeEach(() => {
		addSession('late-afternoon', SEED.scenarios.procurementDiscovery.id, AFTERNOON);
		addSession('next-midnight', SEED.scenarios.procurementDiscovery.id, '2026-11-24T00:00:00Z');
	});

	test.each([
		['a date alone', '2026-11-23'],
		['the picker value for a clicked day', PICKED_DAY],
	])(
		'%s includes the session at 15:00 that day (sent as 23:59:59Z), not the next midnight',
		async (_, endDate) => {
			const { items, error } = await sim.run({
				resource: 'session',
				operation: 'getAll',
				filters: { start_date: '2026-11-23', end_date: endDate },
			});
			expect(error).toBeUndefined();
			expect(sim.control.requests()[0].query).toMatchObject({
				start_date: '2026-11-23T00:00:00.000Z',
				end_date: '2026-11-23T23:59:59.000Z',
			});
			expect(json(items).map((s) => s.id)).toEqual(['late-afternoon']);
		},
	);

	test('with a zone the time is exact: midnight Z leaves the afternoon out', async () => {
		const { items } = await sim.run({
			resource: 'session',
			operation: 'getAll',
			filters: { start_date: '2026-11-22', end_date: '2026-11-23T00:00:00Z' },
		});
		expect(sim.control.requests()[0].query.end_date).toBe('2026-11-23T00:00:00.000Z');
		expect(items).toEqual([]);
	});

	test('Start Date and End Date on the same day are in order', async () => {
		const { error } = await sim.run({
			resource: 'session',
			operation: 'getAll',
			filters: { start_date: '2026-11-23', end_date: '2026-11-23' },
		});
		expect(error).toBeUndefined();
	});
});

describe('Scenario → Get Participant Analytics: End Date', () => {
	test('a date alone includes that day', async () => {
		addSession('cold-call-1', SEED.scenarios.coldCall.id, AFTERNOON);
		const run = async (end_date: string) =>
			json(
				(
					await sim.run({
						resource: 'scenario',
						operation: 'getParticipantAnalytics',
						scenario: rl(SEED.scenarios.coldCall.id),
						filters: { end_date },
					})
				).items,
			);
		const rows = await run('2026-11-23');
		expect(rows.map((row) => [(row.user as IDataObject).email, row.session_count])).toEqual([
			[jane.email, 1],
		]);
		expect(await run('2026-11-22')).toEqual([]);
	});
});

describe('Knowledge Hub Page → Get Many: Updated Before', () => {
	test('a picked day includes a page updated that afternoon; the day before does not', async () => {
		sim.control.setTime(AFTERNOON);
		const page = sim.control.createPage({ title: 'Late change', status: 'published' });
		const titles = async (filters: INodeParameters) =>
			json(
				(
					await sim.run({
						resource: 'knowledgeHubPage',
						operation: 'getAll',
						returnAll: true,
						filters,
					})
				).items,
			).map((p) => p.id);
		expect(await titles({ updated_after: '2026-11-23', updated_before: PICKED_DAY })).toEqual([
			page.id,
		]);
		expect(sim.control.requests().pop()?.query.updated_before).toBe('2026-11-23T23:59:59.000Z');
		expect(await titles({ updated_after: '2026-11-23', updated_before: '2026-11-22' })).toEqual([]);
	});
});

describe('Skill → Get Proficiency: As Of', () => {
	test("a date alone counts that day's practice", async () => {
		const skill = SEED.skills.negotiation.id;
		for (let n = 0; n < 3; n++)
			sim.control.addObservation({
				userEmail: jane.email,
				skillId: skill,
				score: 80,
				at: AFTERNOON,
			});
		const rows = async (end_date: string) =>
			json(
				(
					await sim.run({
						resource: 'skill',
						operation: 'getProficiency',
						skill: rl(skill),
						filters: { end_date },
					})
				).items,
			);
		expect((await rows('2026-11-23')).map((row) => row.observation_count)).toEqual([3]);
		expect(await rows('2026-11-22')).toEqual([]);
	});
});
