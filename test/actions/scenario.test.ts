import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { INSTANT_JOB_TIMINGS, ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';
import type { RunNodeOptions } from '../../n8n-harness/runNode';
import { memberRows } from './support';

const { scenarios, skills, collections, members, groups } = SEED;
const jane = members.find((m) => m.email === 'jane@acme.com')!;
const dev = members.find((m) => m.email === 'dev@acme.com')!;
const carla = members.find((m) => m.email === 'carla@acme.com')!;
const urlOf = (slug: string) => `https://acme-corp.app.exec.com/scenarios/${slug}`;

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock(), jobTimings: INSTANT_JOB_TIMINGS });
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

const rl = (value: string, mode: 'list' | 'id' | 'url' = 'list') => ({ __rl: true, mode, value });

async function run(parameters: INodeParameters, options: Partial<RunNodeOptions> = {}) {
	return await runNode({
		parameters: { resource: 'scenario', ...parameters },
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		...options,
	});
}

const json = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json);
const paired = (items: Array<{ pairedItem?: unknown }>) =>
	items.map((item) => (item.pairedItem as { item: number }).item);
const wire = () => sim.control.requests().map((r) => [r.method, r.path, r.query, r.body]);
const NO_BODY = undefined;

describe('Scenario → Get Many', () => {
	test('default form: one page of 50 without archived scenarios, one item per scenario', async () => {
		const { items, error } = await run({ operation: 'getAll' });
		expect(error).toBeUndefined();
		expect(wire()).toEqual([['GET', '/scenarios', { page: '1', page_size: '50' }, NO_BODY]]);
		const slugs = json(items).map((s) => s.slug);
		expect(slugs).toHaveLength(7);
		expect(slugs).not.toContain(scenarios.archived.slug);
		expect(json(items)[0]).not.toHaveProperty('skills');
		expect(paired(items).every((i) => i === 0)).toBe(true);
	});

	test('every filter and Include Skills go on the wire under the API names', async () => {
		const { items, error } = await run({
			operation: 'getAll',
			returnAll: true,
			filters: {
				owner_email: jane.email,
				visible_to_email: dev.email,
				visibility: 'workspace',
				include_archived: true,
				skill_ids: [skills.discovery.id],
				collection_ids: [collections.procurement.id],
			},
			options: { includeSkills: true },
		});
		expect(error).toBeUndefined();
		expect(sim.control.requests()[0].query).toEqual({
			owner_email: jane.email,
			visible_to_email: dev.email,
			visibility: 'workspace',
			include_archived: 'true',
			skill_ids: skills.discovery.id,
			collection_ids: collections.procurement.id,
			include: 'skills',
			page: '1',
			page_size: '100',
		});
		expect(json(items).map((s) => s.id)).toEqual([scenarios.procurementDiscovery.id]);
		expect((json(items)[0].skills as IDataObject[]).map((s) => s.id)).toContain(
			skills.discovery.id,
		);
	});

	test('Include Archived and comma-separated IDs from an expression reach the archived scenario', async () => {
		const { items } = await run({
			operation: 'getAll',
			filters: {
				include_archived: true,
				collection_ids: `=${collections.onboarding.id}, ${collections.negotiation.id}`,
			},
		});
		expect(sim.control.requests()[0].query.collection_ids).toBe(
			`${collections.onboarding.id},${collections.negotiation.id}`,
		);
		expect(json(items).map((s) => s.slug)).toContain(scenarios.archived.slug);
	});

	test('Limit: asks for just that many', async () => {
		const { items } = await run({ operation: 'getAll', returnAll: false, limit: 3 });
		expect(wire()).toEqual([['GET', '/scenarios', { page: '1', page_size: '3' }, NO_BODY]]);
		expect(items).toHaveLength(3);
	});

	test.each([
		[{ owner_email: 'jane.acme.com' }, 'Owner: must be an e-mail address'],
		[{ visible_to_email: 'nobody' }, 'Visible To: must be an e-mail address'],
		[{ skill_ids: ['not-a-uuid'] }, 'Skill: must be a UUID'],
	])('bad filter %j fails before any request', async (filters, message) => {
		const { error, items } = await run({ operation: 'getAll', filters });
		expect(error?.message).toContain(message);
		expect(error?.description).toContain('Item 0:');
		expect(items).toEqual([]);
		expect(sim.control.requests()).toEqual([]);
	});

	test('Continue On Fail: a bad item becomes an error item, the next item still runs', async () => {
		const { items, error } = await run(
			{ operation: 'getAll', filters: { owner_email: '={{ $json.owner }}' } },
			{ input: [{ owner: 'broken' }, { owner: jane.email }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toContain('Owner: must be an e-mail address');
		expect(paired(items)[0]).toBe(0);
		const rest = items.slice(1);
		expect(rest.length).toBeGreaterThan(0);
		expect(rest.every((item) => (item.json.owner as IDataObject).email === jane.email)).toBe(true);
		expect(paired(rest).every((i) => i === 1)).toBe(true);
		expect(sim.control.requests()).toHaveLength(1);
	});
});

describe('Scenario → Get Many, Return All over several pages', () => {
	let big: RunningSimulator;
	beforeAll(async () => {
		big = await startSimulator({ clock: new ManualClock(), dataSize: { scenarios: 230 } });
	});
	afterAll(async () => await big.close());
	beforeEach(() => big.control.reset());

	test('reads every page of 100', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'scenario', operation: 'getAll', returnAll: true },
			credentials: { baseUrl: big.baseUrl, apiKey: big.apiKey },
		});
		expect(error).toBeUndefined();
		const pages = big.control
			.requests({ path: '/scenarios' })
			.map((r) => [r.query.page, r.query.page_size]);
		expect(pages).toEqual([
			['1', '100'],
			['2', '100'],
			['3', '100'],
		]);
		const total = (
			(await (
				await fetch(`${big.baseUrl}/scenarios?page_size=1`, {
					headers: { authorization: `Bearer ${big.apiKey}` },
				})
			).json()) as { pagination: { total_count: number } }
		).pagination.total_count;
		expect(total).toBeGreaterThan(200);
		expect(new Set(items.map((item) => item.json.id)).size).toBe(total);
	});

	test('By URL on an ID-only operation looks the slug up page by page, stopping at the match', async () => {
		const lastPage = (await (
			await fetch(`${big.baseUrl}/scenarios?page=3&page_size=100&include_archived=true`, {
				headers: { authorization: `Bearer ${big.apiKey}` },
			})
		).json()) as { data: Array<{ id: string; slug: string }> };
		const far = lastPage.data[0];
		const check = async (slug: string) =>
			await runNode({
				parameters: {
					resource: 'scenario',
					operation: 'checkAccess',
					scenario: rl(urlOf(slug), 'url'),
					userEmail: jane.email,
				},
				credentials: { baseUrl: big.baseUrl, apiKey: big.apiKey },
			});
		big.control.reset();
		const { items, error } = await check(far.slug);
		expect(error).toBeUndefined();
		expect(big.control.requests().map((r) => [r.path, r.query])).toEqual([
			['/scenarios', { include_archived: 'true', page: '1', page_size: '100' }],
			['/scenarios', { include_archived: 'true', page: '2', page_size: '100' }],
			['/scenarios', { include_archived: 'true', page: '3', page_size: '100' }],
			[`/scenarios/${far.id}/access`, { user_email: jane.email }],
		]);
		expect(items[0].json.scenario_id).toBe(far.id);

		big.control.reset();
		await check(scenarios.procurementDiscovery.slug);
		expect(big.control.requests().map((r) => r.path)).toEqual([
			'/scenarios',
			`/scenarios/${scenarios.procurementDiscovery.id}/access`,
		]);
	});
});

describe('Scenario → Check Access', () => {
	test('picked from the list: asks with user_email and returns the permissions', async () => {
		const { items, error } = await run({
			operation: 'checkAccess',
			scenario: rl(scenarios.pricingObjection.id),
			userEmail: dev.email,
		});
		expect(error).toBeUndefined();
		expect(wire()).toEqual([
			[
				'GET',
				`/scenarios/${scenarios.pricingObjection.id}/access`,
				{ user_email: dev.email },
				NO_BODY,
			],
		]);
		expect(json(items)).toEqual([
			{
				user_email: dev.email,
				scenario_id: scenarios.pricingObjection.id,
				permissions: { can_view: true, can_share: false, can_monitor: false, can_edit: false },
			},
		]);
	});

	test('By URL: the slug is turned into the ID first', async () => {
		const { items, error } = await run({
			operation: 'checkAccess',
			scenario: rl(urlOf(scenarios.pricingObjection.slug) + '?tab=overview', 'url'),
			userEmail: carla.email,
		});
		expect(error).toBeUndefined();
		expect(wire().map(([method, path]) => `${method} ${path}`)).toEqual([
			'GET /scenarios',
			`GET /scenarios/${scenarios.pricingObjection.id}/access`,
		]);
		expect((items[0].json.permissions as IDataObject).can_edit).toBe(true);
	});

	test('By URL with a slug nobody has: a clear error after the lookup', async () => {
		const { error } = await run({
			operation: 'checkAccess',
			scenario: rl(urlOf('no-such-scenario'), 'url'),
			userEmail: dev.email,
		});
		expect(error?.message).toContain('no scenario has the slug "no-such-scenario"');
		expect(sim.control.requests().every((r) => r.path === '/scenarios')).toBe(true);
	});

	// Values typed into the form are checked by n8n itself (required, URL pattern); values from
	// expressions or an AI tool call reach the node's own checks.
	test.each([
		[
			{ scenario: rl('={{ "https://example.com/not-a-scenario" }}', 'url'), userEmail: dev.email },
			'Scenario ID or URL: must be a scenario URL',
		],
		[{ scenario: rl('={{ "" }}'), userEmail: dev.email }, 'Scenario ID or URL: is required'],
		[
			{ scenario: rl(scenarios.pricingObjection.id), userEmail: '={{ "" }}' },
			'Member: is required',
		],
		[
			{ scenario: rl(scenarios.pricingObjection.id), userEmail: 'dev-at-acme' },
			'Member: must be an e-mail address',
		],
		[
			{ scenario: scenarios.pricingObjection.id, userEmail: 'dev-at-acme' },
			'Member: must be an e-mail address',
		],
	])('bad input %j costs no request', async (parameters, message) => {
		const { error } = await run({ operation: 'checkAccess', ...parameters });
		expect(error?.message).toContain(message);
		expect(sim.control.requests()).toEqual([]);
	});

	test.each([
		[
			{ scenario: rl('https://example.com/not-a-scenario', 'url'), userEmail: dev.email },
			'Not a scenario URL',
		],
		[{ scenario: rl(''), userEmail: dev.email }, 'Parameter "Scenario ID or URL" is required'],
	])('n8n itself refuses a typed %j before the node runs', async (parameters, message) => {
		await expect(run({ operation: 'checkAccess', ...parameters })).rejects.toThrow(message);
		expect(sim.control.requests()).toEqual([]);
	});

	test('an unknown scenario ID is the API 404, named', async () => {
		const { error } = await run({
			operation: 'checkAccess',
			scenario: rl('00000000-0000-4000-8000-000000000000', 'id'),
			userEmail: dev.email,
		});
		expect(error?.message).toMatch(/not found/i);
		expect(error?.message).toContain('00000000-0000-4000-8000-000000000000');
	});
});

describe('Scenario → Grant Access', () => {
	test('default permission level is view; the grant shows up in a later access check', async () => {
		const { items, error } = await run({
			operation: 'grantAccess',
			scenario: rl(scenarios.coldCall.id),
			userEmail: carla.email,
		});
		expect(error).toBeUndefined();
		expect(wire()).toEqual([
			[
				'POST',
				`/scenarios/${scenarios.coldCall.id}/access`,
				{},
				{ user_email: carla.email, permission_level: 'view' },
			],
		]);
		expect(json(items)).toEqual([
			{
				user_email: carla.email,
				scenario_id: scenarios.coldCall.id,
				permission_level: 'view',
				granted: true,
			},
		]);
	});

	test.each(['share', 'monitor', 'edit'])(
		'permission level %s is sent as chosen',
		async (level) => {
			const { items } = await run({
				operation: 'grantAccess',
				scenario: rl(scenarios.coldCall.id, 'id'),
				userEmail: carla.email,
				permissionLevel: level,
			});
			expect(sim.control.requests()[0].body).toEqual({
				user_email: carla.email,
				permission_level: level,
			});
			expect(items[0].json.permission_level).toBe(level);
			const check = await run({
				operation: 'checkAccess',
				scenario: rl(scenarios.coldCall.id),
				userEmail: carla.email,
			});
			expect((check.items[0].json.permissions as IDataObject)[`can_${level}`]).toBe(true);
		},
	);

	test('an unknown permission level from an expression is refused before the request', async () => {
		const { error } = await run({
			operation: 'grantAccess',
			scenario: rl(scenarios.coldCall.id),
			userEmail: carla.email,
			permissionLevel: '={{ "admin" }}',
		});
		// The router refuses it from the form's own options (issue 49), naming the values it takes.
		expect(error?.message).toBe(
			'Permission Level: "admin" is not one of its values; it takes View ("view"), Share ("share"), Monitor ("monitor"), Edit ("edit")',
		);
		expect(sim.control.requests()).toEqual([]);
	});
});

describe('Scenario → Assign', () => {
	test('required fields only: user and due date, date sent as ISO UTC', async () => {
		const { items, error } = await run({
			operation: 'assign',
			scenario: rl(scenarios.discoveryCall.id),
			userEmail: dev.email,
			dueDate: '2026-04-01T17:00:00+02:00',
		});
		expect(error).toBeUndefined();
		expect(wire()).toEqual([
			[
				'POST',
				`/scenarios/${scenarios.discoveryCall.id}/assignments`,
				{},
				{ user_email: dev.email, due_date: '2026-04-01T15:00:00.000Z' },
			],
		]);
		expect(items[0].json).toMatchObject({
			status: 'not_started',
			due_date: '2026-04-01T15:00:00.000Z',
			user: { email: dev.email },
			scenario: { id: scenarios.discoveryCall.id },
		});
	});

	test('every additional field goes in the body', async () => {
		const { items, error } = await run({
			operation: 'assign',
			scenario: rl(urlOf(scenarios.discoveryCall.slug), 'url'),
			userEmail: dev.email,
			dueDate: '2026-04-01T17:00:00Z',
			additionalFields: {
				assigner_email: jane.email,
				attempt_min: 2,
				attempt_max: 4,
				rank_min: 'silver',
				custom_message: 'Please finish before the kickoff.',
			},
		});
		expect(error).toBeUndefined();
		expect(sim.control.requests({ method: 'POST' })[0].body).toEqual({
			user_email: dev.email,
			due_date: '2026-04-01T17:00:00.000Z',
			assigner_email: jane.email,
			attempt_min: 2,
			attempt_max: 4,
			rank_min: 'silver',
			custom_message: 'Please finish before the kickoff.',
		});
		expect(items[0].json).toMatchObject({ attempt_min: 2, attempt_max: 4, rank_min: 'silver' });
	});

	test.each([
		[{ dueDate: '={{ "" }}' }, 'Due Date: is required'],
		[{ dueDate: 'next friday' }, 'Due Date: must be an ISO 8601 date-time'],
		[{ additionalFields: { assigner_email: 'boss' } }, 'Assigner: must be an e-mail address'],
		[
			{ additionalFields: { attempt_min: 5, attempt_max: 2 } },
			'Maximum Attempts: must not be less than Minimum Attempts',
		],
		[{ additionalFields: { attempt_min: 0 } }, 'Minimum Attempts: must be a whole number from 1'],
		[
			{ additionalFields: { rank_min: '={{ "platinum" }}' } },
			'Additional Fields → Minimum Rank: "platinum" is not one of its values; it takes Gold ("gold"), Silver ("silver"), Bronze ("bronze")',
		],
	])('bad input %j costs no request', async (parameters, message) => {
		const { error } = await run({
			operation: 'assign',
			scenario: rl(scenarios.discoveryCall.id),
			userEmail: dev.email,
			dueDate: '2026-04-01T17:00:00Z',
			...parameters,
		});
		expect(error?.message).toContain(message);
		expect(sim.control.requests()).toEqual([]);
	});

	test('a non-member is the API 400 user_not_found, with Continue On Fail as an item', async () => {
		const { items, error } = await run(
			{
				operation: 'assign',
				scenario: rl(scenarios.discoveryCall.id),
				userEmail: '={{ $json.email }}',
				dueDate: '2026-04-01T17:00:00Z',
			},
			{ input: [{ email: 'stranger@elsewhere.com' }, { email: dev.email }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toBeDefined();
		expect(String(items[0].json.description)).toContain('user_not_found');
		expect(items[1].json.status).toBe('not_started');
		expect(paired(items)).toEqual([0, 1]);
	});
});

describe('Scenario → Get Analytics Summary', () => {
	test('By ID or Slug takes the slug as it is; no filters, no query', async () => {
		const { items, error } = await run({
			operation: 'getAnalyticsSummary',
			scenario: rl(scenarios.procurementDiscovery.slug, 'id'),
		});
		expect(error).toBeUndefined();
		expect(wire()).toEqual([
			['GET', `/scenarios/${scenarios.procurementDiscovery.slug}/analytics/summary`, {}, NO_BODY],
		]);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			participant_count: expect.any(Number),
			total_sessions: expect.any(Number),
		});
		expect(items[0].json.participant_count).toBeGreaterThan(0);
	});

	test('By URL sends the slug without a lookup; every filter goes on the wire', async () => {
		const unfiltered = await run({
			operation: 'getAnalyticsSummary',
			scenario: rl(scenarios.procurementDiscovery.id),
		});
		sim.control.clearRequests();
		const { items, error } = await run({
			operation: 'getAnalyticsSummary',
			scenario: rl(urlOf(scenarios.procurementDiscovery.slug), 'url'),
			filters: {
				members: memberRows([jane.id, 'id'], [dev.email, 'list'], [carla.email, 'email']),
				group_ids: [groups.sales.id],
				start_date: '2026-01-01T00:00:00Z',
				end_date: '2026-03-16T00:00:00Z',
				exclude_system_users: true,
			},
		});
		expect(error).toBeUndefined();
		expect(wire()).toEqual([
			[
				'GET',
				`/scenarios/${scenarios.procurementDiscovery.slug}/analytics/summary`,
				{
					user_ids: jane.id,
					user_emails: `${dev.email},${carla.email}`,
					group_ids: groups.sales.id,
					start_date: '2026-01-01T00:00:00.000Z',
					end_date: '2026-03-16T00:00:00.000Z',
					exclude_system_users: 'true',
				},
				NO_BODY,
			],
		]);
		expect(items[0].json.participant_count).toBeLessThan(
			unfiltered.items[0].json.participant_count as number,
		);
		expect(items[0].json.participant_count).toBeGreaterThan(0);
	});

	test.each([
		[
			{ start_date: '2026-03-01T00:00:00Z', end_date: '2026-02-01T00:00:00Z' },
			'Start Date: must not be after the End Date',
		],
		[{ start_date: '31/01/2026' }, 'Start Date: must be an ISO 8601 date-time'],
		[
			{ members: memberRows(['=jane@acme.com, nope', 'email']) },
			'Members (row 1): must be an e-mail address, got "nope"',
		],
	])('bad filter %j costs no request', async (filters, message) => {
		const { error } = await run({
			operation: 'getAnalyticsSummary',
			scenario: rl(scenarios.procurementDiscovery.id),
			filters,
		});
		expect(error?.message).toContain(message);
		expect(sim.control.requests()).toEqual([]);
	});
});

describe('Scenario → Get Participant Analytics', () => {
	const keys = [
		'best_score',
		'first_score',
		'lift_percentage',
		'total_duration_seconds',
		'session_count',
	] as const;

	test('default form: API default order (best score, highest first), one item per participant', async () => {
		const { items, error } = await run({
			operation: 'getParticipantAnalytics',
			scenario: rl(scenarios.procurementDiscovery.id),
		});
		expect(error).toBeUndefined();
		expect(wire()).toEqual([
			[
				'GET',
				`/scenarios/${scenarios.procurementDiscovery.id}/analytics/participants`,
				{ page: '1', page_size: '50' },
				NO_BODY,
			],
		]);
		const best = json(items).map((row) => row.best_score as number);
		expect(best.length).toBeGreaterThan(2);
		expect([...best].sort((a, b) => b - a)).toEqual(best);
	});

	test.each(keys.flatMap((key) => [[key, 'ascending'] as const, [key, 'descending'] as const]))(
		'Sort By %s, %s: sent as sort (the spec) and sorting (the OpenAPI), and honoured',
		async (key, direction) => {
			const { items } = await run({
				operation: 'getParticipantAnalytics',
				scenario: rl(scenarios.procurementDiscovery.slug, 'id'),
				returnAll: true,
				sort: { field: key, direction },
				// Every sort key is in the simplified row too; raw keeps the check independent of that.
				simplify: false,
			});
			const expected = `${direction === 'descending' ? '-' : ''}${key}`;
			expect(sim.control.requests()[0].query).toEqual({
				sort: expected,
				sorting: expected,
				page: '1',
				page_size: '100',
			});
			const values = json(items).map((row) => row[key] as number);
			const sorted = [...values].sort((a, b) => (direction === 'ascending' ? a - b : b - a));
			expect(values).toEqual(sorted);
		},
	);

	test('Direction alone flips the default key', async () => {
		await run({
			operation: 'getParticipantAnalytics',
			scenario: rl(scenarios.procurementDiscovery.id),
			sort: { direction: 'ascending' },
		});
		expect(sim.control.requests()[0].query).toMatchObject({
			sort: 'best_score',
			sorting: 'best_score',
		});
	});

	test('Limit and filters: page_size is the limit and the people filters apply', async () => {
		const { items, error } = await run({
			operation: 'getParticipantAnalytics',
			scenario: rl(scenarios.procurementDiscovery.id),
			limit: 2,
			filters: {
				group_ids: [groups.sales.id],
				exclude_system_users: true,
				end_date: '2026-03-16T12:00:00Z',
			},
		});
		expect(error).toBeUndefined();
		expect(sim.control.requests()[0].query).toEqual({
			group_ids: groups.sales.id,
			exclude_system_users: 'true',
			end_date: '2026-03-16T12:00:00.000Z',
			page: '1',
			page_size: '2',
		});
		expect(items).toHaveLength(2);
		expect(json(items).map((row) => (row.user as IDataObject).email)).not.toContain(
			'support@exec.com',
		);
	});
});
