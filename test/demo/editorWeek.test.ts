/**
 * Issue 49: `npm run editor`'s simulator runs on the real clock, months after its seed: the week it
 * adds (scripts/n8n/thisWeek.ts) gives the weekly tier digest tier changes and the analytics and coach
 * alert sessions in the current week, so each template shows a result in the editor.
 */
import type { IDataObject } from 'n8n-workflow';

import { startSimulator, type RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';
import { addThisWeek } from '../../scripts/n8n/thisWeek';

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => await sim.close());

const credentials = () => ({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });
const tierChanges = async () =>
	await runNode({
		parameters: {
			resource: 'skill',
			operation: 'getTierChanges',
			skillScope: 'all',
			filters: { exclude_system_users: true },
		},
		credentials: credentials(),
	});

test('the seed alone has no tier change this week; with the added week, the digest has some', async () => {
	const before = await tierChanges();
	expect(before.error).toBeUndefined();
	expect(before.items).toHaveLength(0);
	addThisWeek(sim);
	const after = await tierChanges();
	expect(after.error).toBeUndefined();
	const summaries = after.items.map((i) => String((i.json as IDataObject).summary));
	expect(summaries).toEqual(
		expect.arrayContaining([expect.stringMatching(/^Bob Jones: Negotiation .* → proficient/)]),
	);
});

test('this week has scored sessions, one of them low, and an assignment past due', async () => {
	const weekAgo = new Date(Date.parse(sim.control.now()) - 7 * 86_400_000).toISOString();
	const { items, error } = await runNode({
		parameters: {
			resource: 'session',
			operation: 'getAll',
			returnAll: true,
			filters: { start_date: weekAgo },
		},
		credentials: credentials(),
	});
	expect(error).toBeUndefined();
	const scores = items.map((i) => Number((i.json as IDataObject).score));
	expect(scores.length).toBeGreaterThanOrEqual(6);
	expect(Math.min(...scores)).toBeLessThan(50);
	const pastDue = sim.control.store.data.assignments.filter((a) => a.status === 'past_due');
	expect(pastDue.some((a) => a.dueDate !== null && a.dueDate > Date.parse(weekAgo))).toBe(true);
});
