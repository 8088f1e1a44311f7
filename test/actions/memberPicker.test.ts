/**
 * The member picker: its "From List" searches as the n8n editor calls them (n8n-core's
 * LoadOptionsContext, real HTTP to the simulator), and its three modes run through the engine in the
 * operations that take a member, with the checks that stop bad values before any request.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeParameters } from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { loadOptionsContext, type ListSearchMethod } from '../../n8n-harness/loadOptions';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';
import { json, useSimulator } from './support';

const search = new WorkspacePractice().methods.listSearch as Record<string, ListSearchMethod>;
const triggerSearch = new WorkspacePracticeTrigger().methods.listSearch as Record<
	string,
	ListSearchMethod
>;

/** A locator value as the editor stores it, in any of the member picker's modes. */
const member = (value: string, mode: 'list' | 'email' | 'id') => ({ __rl: true, mode, value });

describe('member "From List" searches', () => {
	let sim: RunningSimulator;
	let ctx: ILoadOptionsFunctions;
	// 1,208 members: the seed's 8 and user00001…user01200, 13 API pages of 100.
	beforeAll(async () => {
		sim = await startSimulator({ clock: new ManualClock(), dataSize: { members: 1200 } });
		ctx = loadOptionsContext({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });
	});
	afterAll(async () => await sim.close());
	beforeEach(() => sim.control.reset());

	const pagesRead = () =>
		sim.control
			.requests({ path: '/workspace/members' })
			.map((r) => [r.query.page, r.query.page_size]);

	test('no search term: one API page of 100 per call, "First Last <email>" over e-mails; the token walks on', async () => {
		const first = await search.searchMembers.call(ctx);
		expect(first.results).toHaveLength(100);
		expect(first.results[0]).toEqual({
			name: 'Jane Smith <jane@acme.com>',
			value: 'jane@acme.com',
		});
		expect(first.paginationToken).toBe('2');
		const last = await search.searchMembers.call(ctx, undefined, '13');
		expect(last.results.map((r) => r.value)).toEqual(
			Array.from({ length: 8 }, (_, i) => `user0${1193 + i}@acme.com`),
		);
		expect(last.paginationToken).toBeUndefined();
		expect(pagesRead()).toEqual([
			['1', '100'],
			['13', '100'],
		]);
	});

	test('searchMemberIds carries user IDs, with the same labels', async () => {
		const { results } = await search.searchMemberIds.call(ctx, 'jane');
		const jane = sim.control.fixtures().members.find((m) => m.email === 'jane@acme.com')!;
		expect(results).toEqual([{ name: 'Jane Smith <jane@acme.com>', value: jane.id }]);
	});

	test('a search term pages past 500 members in one call (no cap) until enough match, then the token goes on', async () => {
		// user00690…user00699 sit on page 7; fewer than a screenful match, so the call reads its 10 pages.
		const first = await search.searchMembers.call(ctx, 'USER0069');
		expect(first.results.map((r) => r.value)).toEqual(
			Array.from({ length: 10 }, (_, i) => `user0069${i}@acme.com`),
		);
		expect(first.paginationToken).toBe('11');
		expect(pagesRead().map(([page]) => page)).toEqual([
			'1',
			'2',
			'3',
			'4',
			'5',
			'6',
			'7',
			'8',
			'9',
			'10',
		]);
		sim.control.clearRequests();
		// Scrolling reads on from page 11 to the end: the last member, beyond 1,000, is found.
		const more = await search.searchMembers.call(ctx, 'user01200', first.paginationToken as string);
		expect(more.results).toEqual([
			{ name: 'User 01200 <user01200@acme.com>', value: 'user01200@acme.com' },
		]);
		expect(more.paginationToken).toBeUndefined();
		expect(pagesRead().map(([page]) => page)).toEqual(['11', '12', '13']);
	});

	test('a search with a screenful of matches on the first page stops there', async () => {
		const { results, paginationToken } = await search.searchMembers.call(ctx, 'User 00');
		expect(results.length).toBeGreaterThanOrEqual(20);
		expect(results.every((r) => /^User 00\d{3} <user00\d{3}@acme\.com>$/.test(r.name))).toBe(true);
		expect(paginationToken).toBe('2');
		expect(pagesRead()).toEqual([['1', '100']]);
	});

	test('matches on the name as well as the e-mail, case-insensitively', async () => {
		const { results } = await search.searchMembers.call(ctx, 'rOSSi');
		expect(results).toEqual([{ name: 'Gina Rossi <gina@acme.com>', value: 'gina@acme.com' }]);
	});

	test('the Knowledge Hub trigger offers the same ID search for its Owner filter', async () => {
		const triggerCtx = loadOptionsContext(
			{ baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			{ nodeType: 'n8n-nodes-workspace-practice.workspacePracticeTrigger' },
		);
		const { results } = await triggerSearch.searchMemberIds.call(triggerCtx, 'bob@');
		const bob = sim.control.fixtures().members.find((m) => m.email === 'bob@acme.com')!;
		expect(results).toEqual([{ name: 'Bob Jones <bob@acme.com>', value: bob.id }]);
	});
});

describe('member picker modes through the engine', () => {
	const sim = useSimulator();
	const person = (email: string) => sim.control.fixtures().members.find((m) => m.email === email)!;
	const scenarioId = () => SEED.scenarios.procurementDiscovery.id;
	const checkAccess = (userEmail: unknown) => ({
		resource: 'scenario',
		operation: 'checkAccess',
		scenario: { __rl: true, mode: 'id', value: scenarioId() },
		userEmail,
	});

	test.each([
		['From List', member('dev@acme.com', 'list')],
		['By Email', member('dev@acme.com', 'email')],
		['an expression giving the bare e-mail', 'dev@acme.com'],
	])('Check Access, %s: the e-mail goes out as user_email', async (_mode, userEmail) => {
		const { items, error } = await sim.run(checkAccess(userEmail) as INodeParameters);
		expect(error).toBeUndefined();
		expect(sim.control.requests({ path: `/scenarios/${scenarioId()}/access` })[0].query).toEqual({
			user_email: 'dev@acme.com',
		});
		expect(json(items)[0]).toMatchObject({
			user_email: 'dev@acme.com',
			permissions: { can_view: true },
		});
	});

	test('Knowledge Hub Page → Get Many, Owner By ID and From List: the user ID goes out as owner_id', async () => {
		const jane = person('jane@acme.com');
		for (const mode of ['id', 'list'] as const) {
			sim.control.clearRequests();
			const { error } = await sim.run({
				resource: 'knowledgeHubPage',
				operation: 'getAll',
				filters: { owner_id: member(jane.id, mode) },
			});
			expect(error).toBeUndefined();
			expect(sim.control.requests({ path: '/knowledge-hub/pages' })[0].query).toMatchObject({
				owner_id: jane.id,
			});
		}
	});

	test('a Members filter sends From List and By Email rows as user_emails, By ID rows as user_ids', async () => {
		const jane = person('jane@acme.com');
		const { items, error } = await sim.run({
			resource: 'assignment',
			operation: 'getAll',
			returnAll: true,
			filters: {
				members: {
					member: [
						{ member: member('carla@acme.com', 'list') },
						{ member: member(jane.id, 'id') },
						// An expression in By Email may give several, comma-separated.
						{ member: member('=dev@acme.com, carla@acme.com', 'email') },
					],
				},
			},
		});
		expect(error).toBeUndefined();
		expect(sim.control.requests({ path: '/scenarios/assignments' })[0].query).toMatchObject({
			user_ids: jane.id,
			user_emails: 'carla@acme.com,dev@acme.com',
		});
		const emails = new Set(json(items).map((a) => (a.user as IDataObject).email));
		expect(emails).toEqual(new Set(['jane@acme.com', 'carla@acme.com', 'dev@acme.com']));
	});

	test.each([
		['By Email', checkAccess(member('dev', 'email')), 'Not an e-mail address'],
		[
			'a required member left empty',
			checkAccess(member('', 'list')),
			'Parameter "Member" is required.',
		],
	])(
		'the form checks %s as typed: n8n refuses to run the node (the editor checks fields inside Filters too)',
		async (_what, parameters, issue) => {
			await expect(sim.run(parameters as INodeParameters)).rejects.toThrow(issue);
			expect(sim.control.requests()).toHaveLength(0);
		},
	);

	// Expressions pass the form's checks; the run-time checks catch what they produce.
	test.each([
		[
			'By Email with no e-mail',
			checkAccess(member('={{ "dev" }}', 'email')),
			'Member: must be an e-mail address, got "dev"',
		],
		[
			'By ID where only e-mails are taken',
			checkAccess(member('u1a2b3c4d5e6', 'id')),
			'Member: By ID is not available here: this field takes an e-mail address',
		],
		[
			'an empty member',
			checkAccess(member('={{ "" }}', 'list')),
			'Member: is required: pick a member or give an e-mail address',
		],
		[
			'By Email where only user IDs are taken',
			{
				resource: 'knowledgeHubPage',
				operation: 'getAll',
				filters: { owner_id: member('jane@acme.com', 'email') },
			},
			'Owner: By Email is not available here: this field takes a user ID',
		],
		[
			'an e-mail in a By ID row',
			{
				resource: 'session',
				operation: 'getAll',
				filters: { members: { member: [{ member: member('={{ "jane@acme.com" }}', 'id') }] } },
			},
			'Members (row 1): must be a user ID (letters, digits, - and _), got "jane@acme.com": that is an e-mail, choose By Email',
		],
		[
			'a bad entry in a list an expression gave',
			{
				resource: 'assignment',
				operation: 'getAll',
				filters: { members: { member: [{ member: member('=jane@acme.com,nope', 'email') }] } },
			},
			'Members (row 1): must be an e-mail address, got "nope"',
		],
		[
			'an ID with a space',
			{
				resource: 'knowledgeHubPage',
				operation: 'getAll',
				filters: { owner_id: member('={{ "u1 a2" }}', 'id') },
			},
			'Owner: must be a user ID (letters, digits, - and _), got "u1 a2"',
		],
	])(
		'%s is refused at run time naming the field, before any request',
		async (_what, parameters, message) => {
			const { error } = await sim.run(parameters as INodeParameters);
			expect(error?.message).toBe(message);
			expect(sim.control.requests()).toHaveLength(0);
		},
	);
});
