import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';
import type { RunNodeOptions } from '../../n8n-harness/runNode';
import { memberRows } from './support';

const { scenarios, members, programs, skills, collections, groups } = SEED;
const person = (address: string) => members.find((m) => m.email === address)!;

let sim: RunningSimulator;
let allSessions: IDataObject[];
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock() });
	const response = await fetch(`${sim.baseUrl}/sessions?page_size=100`, {
		headers: { authorization: `Bearer ${sim.apiKey}` },
	});
	allSessions = ((await response.json()) as { data: IDataObject[] }).data;
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

const rl = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

async function run(parameters: INodeParameters, options: Partial<RunNodeOptions> = {}) {
	return await runNode({
		parameters: { resource: 'session', ...parameters },
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		...options,
	});
}

const json = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json);

describe('Session → Get Many', () => {
	test('default form: one page of 50, newest first as the API orders them', async () => {
		const { items, error } = await run({ operation: 'getAll' });
		expect(error).toBeUndefined();
		expect(sim.control.requests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/sessions', { page: '1', page_size: '50' }],
		]);
		expect(json(items).map((s) => s.id)).toEqual(allSessions.map((s) => s.id));
	});

	test('every filter goes on the wire under its API name', async () => {
		const { items, error } = await run({
			operation: 'getAll',
			returnAll: true,
			filters: {
				members: memberRows(
					[person('jane@acme.com').id, 'id'],
					['support@exec.com', 'email'],
					['bob@acme.com', 'list'],
				),
				group_ids: [groups.sales.id, groups.leadership.id],
				scenario_ids: scenarios.procurementDiscovery.id,
				collection_ids: [collections.procurement.id],
				skill_ids: [skills.discovery.id],
				program_ids: `${programs.q1Onboarding.id}, ${programs.salesBootcamp.id}`,
				rank: ['gold', 'silver'],
				start_date: '2025-01-01T00:00:00Z',
				end_date: '2026-03-16T12:00:00Z',
				exclude_system_users: true,
			},
		});
		expect(error).toBeUndefined();
		expect(sim.control.requests()[0].query).toEqual({
			user_ids: person('jane@acme.com').id,
			user_emails: 'support@exec.com,bob@acme.com',
			group_ids: `${groups.sales.id},${groups.leadership.id}`,
			scenario_ids: scenarios.procurementDiscovery.id,
			collection_ids: collections.procurement.id,
			skill_ids: skills.discovery.id,
			program_ids: `${programs.q1Onboarding.id},${programs.salesBootcamp.id}`,
			rank: 'gold,silver',
			start_date: '2025-01-01T00:00:00.000Z',
			end_date: '2026-03-16T12:00:00.000Z',
			exclude_system_users: 'true',
			page: '1',
			page_size: '100',
		});
		// What the API returns for the same query, item for item.
		const expected = allSessions.filter(
			(s) =>
				['jane@acme.com', 'bob@acme.com'].includes((s.user as IDataObject).email as string) &&
				(s.scenario as IDataObject).id === scenarios.procurementDiscovery.id &&
				['gold', 'silver'].includes(s.rank as string),
		);
		const got = json(items);
		expect(got.length).toBeGreaterThan(0);
		expect(got.every((s) => expected.some((e) => e.id === s.id))).toBe(true);
	});

	test.each([
		['score', 'ascending', 'score'],
		['score', 'descending', '-score'],
		['duration', 'ascending', 'duration'],
		['created_at', 'ascending', 'created_at'],
	])('Sort By %s %s → sorting=%s, honoured', async (field, direction, wire) => {
		const { items } = await run({
			operation: 'getAll',
			returnAll: true,
			sort: { field, direction },
		});
		// The OpenAPI's name only: the spec does not show this list's parameters.
		expect(sim.control.requests()[0].query.sorting).toBe(wire);
		expect(sim.control.requests()[0].query).not.toHaveProperty('sort');
		const key = field === 'duration' ? 'duration_seconds' : field;
		const values = json(items)
			.map((s) => s[key])
			.filter((value) => value !== null)
			.map((value) => (typeof value === 'string' ? Date.parse(value) : (value as number)));
		const sorted = [...values].sort((a, b) => (direction === 'ascending' ? a - b : b - a));
		expect(values).toEqual(sorted);
	});

	test('Limit: asks for just that many; Return All reads the rest', async () => {
		const limited = await run({ operation: 'getAll', limit: 5 });
		expect(sim.control.requests()[0].query).toEqual({ page: '1', page_size: '5' });
		expect(limited.items).toHaveLength(5);
		sim.control.clearRequests();
		const all = await run({ operation: 'getAll', returnAll: true });
		expect(sim.control.requests().map((r) => r.query)).toEqual([{ page: '1', page_size: '100' }]);
		expect(all.items).toHaveLength(allSessions.length);
	});

	test.each([
		[{ skill_ids: '=not-a-uuid' }, 'Skill: must be a UUID'],
		[{ start_date: 'yesterday' }, 'Start Date: must be an ISO 8601 date-time'],
		[{ end_date: '2026-13-45T00:00:00Z' }, 'End Date: must be an ISO 8601 date-time'],
		[
			{ members: memberRows(['={{ "bob" }}', 'email']) },
			'Members (row 1): must be an e-mail address',
		],
	])('bad filter %j costs no request', async (filters, message) => {
		const { error } = await run({ operation: 'getAll', filters });
		expect(error?.message).toContain(message);
		expect(error?.description).toContain('No request was sent');
		expect(sim.control.requests()).toEqual([]);
	});
});

describe('Session → Get', () => {
	const graded = () => allSessions.find((s) => s.score !== null)!;

	test('default form: the session with feedback, no include', async () => {
		const session = graded();
		const { items, error } = await run({ operation: 'get', session: rl(session.id as string) });
		expect(error).toBeUndefined();
		expect(sim.control.requests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', `/sessions/${session.id}`, {}],
		]);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id: session.id, score: session.score });
		expect(items[0].json.outcome_feedback).toEqual(expect.any(String));
		expect(items[0].json).not.toHaveProperty('transcript');
		expect(items[0].json).not.toHaveProperty('evaluations');
	});

	test('Include Transcript and Include Evaluations: include=transcript,evaluations', async () => {
		const session = graded();
		const { items } = await run({
			operation: 'get',
			session: rl(session.id as string, 'id'),
			options: { includeTranscript: true, includeEvaluations: true },
		});
		expect(sim.control.requests()[0].query).toEqual({ include: 'transcript,evaluations' });
		expect((items[0].json.transcript as IDataObject[]).length).toBeGreaterThan(0);
		expect((items[0].json.evaluations as IDataObject[]).length).toBeGreaterThan(0);
	});

	test('Include Evaluations alone', async () => {
		const { items } = await run({
			operation: 'get',
			session: rl(graded().id as string),
			options: { includeEvaluations: true, includeTranscript: false },
		});
		expect(sim.control.requests()[0].query).toEqual({ include: 'evaluations' });
		expect(items[0].json).not.toHaveProperty('transcript');
	});

	test('one request per input item; an unknown ID is an error item with Continue On Fail', async () => {
		const { items, error } = await run(
			{ operation: 'get', session: rl('={{ $json.id }}', 'id') },
			{
				input: [{ id: graded().id }, { id: 'no-such-session' }, { id: allSessions[1].id }],
				continueOnFail: true,
			},
		);
		expect(error).toBeUndefined();
		expect(sim.control.requests()).toHaveLength(3);
		expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		expect(items[0].json.id).toBe(graded().id);
		expect(items[1].json.error).toMatch(/not found/i);
		expect(items[1].json.httpCode).toBe('404');
		expect(items[2].json.id).toBe(allSessions[1].id);
	});

	test('an empty session from an expression costs no request', async () => {
		const { error } = await run({ operation: 'get', session: rl('={{ "" }}', 'id') });
		expect(error?.message).toContain('Session ID: is required');
		expect(sim.control.requests()).toEqual([]);
	});
});
