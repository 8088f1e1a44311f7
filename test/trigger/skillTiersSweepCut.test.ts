/**
 * Issue 55: a sweep the poll's deadline cuts in the middle of a skill's pages goes on at the next poll
 * from the page after the last one it kept: no earlier page of the skill is read again (only the page
 * whose own reading the deadline cut). Before, a skill's sweep was read whole; cut, it was thrown away
 * and read again from page 1 at the next poll (measured on the 2,000-member week: 38 requests of a
 * first sweep read again, day 3 at 926 requests). A day after
 * activation every skill is due (Sweep Every 1); polls a minute apart, each with a budget shorter
 * than the key's minute (50 requests a minute), so each poll holds 50 requests and the deadline cuts
 * the third skill's pages. Counted in requests through the simulator, on its clock (the poll's pace
 * moves it).
 */
import type { IDataObject } from 'n8n-workflow';

import { PollHarness } from '../../n8n-harness/pollHarness';
import { useSweepWorkspace } from './sweepWorkspace';

// A pause (the poll's pacing to 50 requests a minute) moves the simulated clock instead of passing.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => ws.clock.advance(ms),
}));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MEMBERS = 2000;
const SKILLS = 3;

const ws = useSweepWorkspace(MEMBERS, SKILLS, 551);

test('a sweep the deadline cuts mid-skill goes on from its next page: no earlier page read again', async () => {
	const trigger = new PollHarness({
		parameters: {
			triggerOn: 'skillTiers',
			skillTierEvents: ['tierChanged'],
			skillTierOptions: { sweepDays: 1 },
		},
		credentials: { baseUrl: ws.sim.baseUrl, apiKey: ws.sim.apiKey },
		workflow: { id: 'sweep-cut', name: 'Tier alerts' },
		// Under the key's minute: a poll holds its 50 requests (three sweeps of 20 pages do not fit).
		pollBudgetMs: 27_000,
	});
	expect((await trigger.poll()).error).toBeUndefined();
	ws.clock.advance(24 * HOUR);
	const readAt = Math.floor(ws.clock.now() / 1000) * 1000;
	ws.sim.control.clearRequests();
	// The sweep pages (no user_ids) in the order read, each with its poll.
	const reads: Array<{ poll: number; page: string }> = [];
	let polls = 0;
	while (polls++ < 40) {
		const outcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		for (const r of ws.sim.control.requests())
			if (r.path.endsWith('/proficiency') && r.query.user_ids === undefined)
				reads.push({ poll: polls, page: `${r.path} page ${r.query.page}` });
		ws.sim.control.clearRequests();
		if ((trigger.stored as IDataObject).continues !== true) break;
		ws.clock.advance(MINUTE);
	}
	expect((trigger.stored as IDataObject).continues).not.toBe(true);
	const skills = (ws.sim.control.store.data.skills as Array<{ id: string }>).map((s) => s.id);
	// The read took several polls, and a skill's pages were split between two of them (a cut mid-skill).
	expect(polls).toBeGreaterThan(1);
	const pollsOf = (id: string) =>
		new Set(reads.filter((r) => r.page.includes(id)).map((r) => r.poll));
	expect(skills.some((id) => pollsOf(id).size > 1)).toBe(true);
	// A page is read again only when it is the poll's last and the deadline refused its members' reading
	// as of the skill's reference (a page is kept with it): then it is the next poll's first.
	const again = [...new Set(reads.map((r) => r.page))].filter(
		(page) => reads.filter((r) => r.page === page).length > 1,
	);
	process.stdout.write(`sweep cut ${JSON.stringify({ polls, pageReads: reads.length, again })}\n`);
	for (const page of again) {
		const at = reads.flatMap((r, n) => (r.page === page ? [n] : []));
		expect(at).toHaveLength(2);
		const [cut, resumed] = at.map((n) => reads[n]);
		expect(resumed.poll).toBe(cut.poll + 1);
		expect(reads[at[0] + 1]).toBe(resumed);
	}
	expect(again.length).toBeLessThan(polls);
	// Every page of every skill read.
	for (const id of skills) {
		const pages = new Set(reads.filter((r) => r.page.includes(id)).map((r) => r.page)).size;
		expect(pages).toBeGreaterThan(MEMBERS / 100 - 1);
		for (let page = 1; page <= pages; page++)
			expect(reads.some((r) => r.page === `/skills/${id}/proficiency page ${page}`)).toBe(true);
	}
	// Every skill swept as of the read's instant.
	const swept = (trigger.stored as IDataObject).s as Record<string, number[]>;
	for (const id of skills) expect(swept[id][1] * 1000).toBe(readAt);
});
