import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';
import type { RunNodeOptions } from '../../n8n-harness/runNode';
import { memberRows } from './support';

const { scenarios, members, programs, assignments } = SEED;
const email = (address: string) => members.find((m) => m.email === address)!;

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock() });
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

async function run(parameters: INodeParameters, options: Partial<RunNodeOptions> = {}) {
	return await runNode({
		parameters: { resource: 'assignment', operation: 'getAll', ...parameters },
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		...options,
	});
}

const json = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json);

describe('Assignment → Get Many', () => {
	test('default form: one page of 50, one item per assignment, assignments in every status', async () => {
		const { items, error } = await run({});
		expect(error).toBeUndefined();
		expect(sim.control.requests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/scenarios/assignments', { page: '1', page_size: '50' }],
		]);
		const ids = json(items).map((a) => a.id);
		for (const id of Object.values(assignments)) expect(ids).toContain(id);
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('every filter goes on the wire under its API name; statuses comma-joined', async () => {
		const { items, error } = await run({
			returnAll: true,
			filters: {
				members: memberRows(
					[email('jane@acme.com').id, 'id'],
					['carla@acme.com', 'list'],
					['dev@acme.com', 'email'],
				),
				scenario_ids: ` ${scenarios.procurementDiscovery.id} `,
				program_ids: `${programs.q1Onboarding.id},${programs.salesBootcamp.id}`,
				status: ['completed', 'past_due'],
			},
		});
		expect(error).toBeUndefined();
		expect(sim.control.requests()[0].query).toEqual({
			user_ids: email('jane@acme.com').id,
			user_emails: 'carla@acme.com,dev@acme.com',
			scenario_ids: scenarios.procurementDiscovery.id,
			program_ids: `${programs.q1Onboarding.id},${programs.salesBootcamp.id}`,
			status: 'completed,past_due',
			page: '1',
			page_size: '100',
		});
		expect(
			json(items)
				.map((a) => a.id)
				.sort(),
		).toEqual([assignments.completed, assignments.past_due].sort());
	});

	test.each(['not_started', 'in_progress', 'did_not_pass'])('status %s alone', async (status) => {
		const { items } = await run({ filters: { status: [status] } });
		expect(sim.control.requests()[0].query.status).toBe(status);
		expect(json(items).map((a) => a.status)).toEqual(expect.arrayContaining([status]));
		expect(json(items).every((a) => a.status === status)).toBe(true);
	});

	test('Limit: asks for just that many', async () => {
		const { items } = await run({ limit: 2 });
		expect(sim.control.requests()[0].query).toEqual({ page: '1', page_size: '2' });
		expect(items).toHaveLength(2);
	});

	test('an invalid e-mail in Members costs no request', async () => {
		const { error } = await run({
			filters: { members: memberRows(['=jane@acme.com,not-an-email', 'email']) },
		});
		expect(error?.message).toContain(
			'Members (row 1): must be an e-mail address, got "not-an-email"',
		);
		expect(sim.control.requests()).toEqual([]);
	});

	test('Continue On Fail: the bad item is an error item, the good one lists', async () => {
		const { items, error } = await run(
			{ filters: { members: memberRows(['={{ $json.who }}', 'email']) } },
			{ input: [{ who: 'carla@acme.com' }, { who: 'carla' }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		const errors = items.filter((item) => item.json.error !== undefined);
		expect(errors).toHaveLength(1);
		expect((errors[0].pairedItem as { item: number }).item).toBe(1);
		const rows = items.filter((item) => item.json.error === undefined);
		expect(rows.length).toBeGreaterThan(0);
		expect(rows.every((item) => (item.json.user as IDataObject).email === 'carla@acme.com')).toBe(
			true,
		);
		expect(rows.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});
});
