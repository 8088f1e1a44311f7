import type { IDataObject } from 'n8n-workflow';

import { SEED } from '../../simulator';
import { json, memberRows, rl, useSimulator } from './support';

const { skills, members, groups } = SEED;
const person = (address: string) => members.find((m) => m.email === address)!;

const sim = useSimulator('skill');
const { run } = sim;
const emails = (items: Array<{ json: IDataObject }>) =>
	json(items).map((row) => (row.user as IDataObject).email);

describe('Skill → Get Many', () => {
	test('default form: every skill, alphabetical, without proficiency figures', async () => {
		const { items, error } = await run({ operation: 'getAll' });
		expect(error).toBeUndefined();
		expect(sim.control.requests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/skills', { page: '1', page_size: '50' }],
		]);
		const names = json(items).map((s) => s.name as string);
		expect(names).toEqual(
			Object.values(skills)
				.map((s) => s.name)
				.sort((a, b) => a.localeCompare(b)),
		);
		expect(json(items)[0]).not.toHaveProperty('proficiency_summary');
	});

	test('Include Proficiency: include=proficiency, figures per skill', async () => {
		const { items } = await run({
			operation: 'getAll',
			returnAll: true,
			options: { includeProficiency: true },
		});
		expect(sim.control.requests()[0].query).toEqual({
			include: 'proficiency',
			page: '1',
			page_size: '100',
		});
		const discovery = json(items).find((s) => s.id === skills.discovery.id)!;
		expect(discovery.proficiency_summary).toMatchObject({ participant_count: expect.any(Number) });
		expect((discovery.proficiency_summary as IDataObject).participant_count).toBeGreaterThan(0);
	});

	test('Limit: asks for just that many', async () => {
		const { items } = await run({ operation: 'getAll', limit: 1 });
		expect(sim.control.requests()[0].query).toEqual({ page: '1', page_size: '1' });
		expect(items).toHaveLength(1);
	});
});

describe('Skill → Get Proficiency', () => {
	test('default form: one item per person who practiced, best score first', async () => {
		const { items, error } = await run({
			operation: 'getProficiency',
			skill: rl(skills.discovery.id),
		});
		expect(error).toBeUndefined();
		expect(sim.control.requests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', `/skills/${skills.discovery.id}/proficiency`, { page: '1', page_size: '50' }],
		]);
		expect(items.length).toBeGreaterThan(3);
		expect(emails(items)).toContain('support@exec.com');
		const tiers = json(items).map((row) => row.tier);
		expect(tiers).toContain('insufficient_data');
	});

	test('every filter goes on the wire; As Of is end_date', async () => {
		const { items, error } = await run({
			operation: 'getProficiency',
			skill: rl(skills.discovery.id, 'id'),
			returnAll: true,
			filters: {
				members: memberRows(
					[person('frank@acme.com').id, 'id'],
					['support@exec.com', 'email'],
					['jane@acme.com', 'list'],
				),
				group_ids: [groups.customerSuccess.id, groups.leadership.id],
				end_date: '2026-03-10T00:00:00Z',
				exclude_system_users: true,
			},
		});
		expect(error).toBeUndefined();
		expect(sim.control.requests()[0].query).toEqual({
			user_ids: person('frank@acme.com').id,
			user_emails: 'support@exec.com,jane@acme.com',
			group_ids: `${groups.customerSuccess.id},${groups.leadership.id}`,
			end_date: '2026-03-10T00:00:00.000Z',
			exclude_system_users: 'true',
			page: '1',
			page_size: '100',
		});
		expect(emails(items).sort()).toEqual(['frank@acme.com', 'jane@acme.com']);
		// Frank's 96 two days ago is after the as-of date, so his score is below what it is today.
		const today = await run({
			operation: 'getProficiency',
			skill: rl(skills.discovery.id),
			filters: { members: memberRows(['frank@acme.com', 'list']) },
		});
		const frankThen = json(items).find(
			(row) => (row.user as IDataObject).email === 'frank@acme.com',
		)!;
		expect(frankThen.score).not.toEqual(today.items[0].json.score);
	});

	test('Limit: page_size is the limit', async () => {
		const { items } = await run({
			operation: 'getProficiency',
			skill: rl(skills.discovery.id),
			limit: 2,
		});
		expect(sim.control.requests()[0].query).toEqual({ page: '1', page_size: '2' });
		expect(items).toHaveLength(2);
	});

	test.each([
		[{ skill: rl('={{ "sk1a2b3c4d5e" }}', 'id') }, 'Skill ID: must be a UUID'],
		[{ skill: 'not-a-uuid' }, 'Skill ID: must be a UUID'],
		[
			{ skill: rl(skills.discovery.id), filters: { end_date: '10 March' } },
			'As Of: must be an ISO 8601 date-time',
		],
		[
			{
				skill: rl(skills.discovery.id),
				filters: { members: memberRows(['={{ "frank" }}', 'email']) },
			},
			'Members (row 1): must be an e-mail address',
		],
	])('bad input %j costs no request', async (parameters, message) => {
		const { error } = await run({ operation: 'getProficiency', ...parameters });
		expect(error?.message).toContain(message);
		expect(sim.control.requests()).toEqual([]);
	});

	test('an unknown skill is the API 404; Continue On Fail keeps the other items', async () => {
		const { items, error } = await run(
			{ operation: 'getProficiency', skill: rl('={{ $json.skill }}', 'id'), limit: 1 },
			{
				input: [{ skill: '00000000-0000-4000-8000-000000000000' }, { skill: skills.objection.id }],
				continueOnFail: true,
			},
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toMatch(/not found/i);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.tier).toEqual(expect.any(String));
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});
});
