/**
 * Issue 57: `npm run demo` never waits for a key's minute, whatever the machine's speed. A part waits
 * when its key's minute is full (transport/pacer.ts); a key sent no more than the pacer's limit in all
 * never is, however fast or slow the parts ran. So: (1) each workspace of the demo's plan, sent all
 * its parts' requests in one instant (the worst case: frozen fake time), makes the real pacer wait 0
 * times; the demo's old plan (parts 1 to 8 on one key) made it wait; (2) each part, run for real, sends
 * no more than the count the plan reckons with.
 */
import { randomUUID } from 'node:crypto';

import { paceRequest } from '../../nodes/shared/transport/pacer';
import { WebhookServer } from '../../n8n-harness/webhookServer';
import { DEMO_PARTS, runDemo } from '../../scripts/demoParts';
import { KEY_BUDGET, planWorkspaces, type PartCost } from '../../scripts/demoPlan';

const LIMITS = {
	requestsPerMinute: KEY_BUDGET.requests,
	creationsPerMinute: KEY_BUDGET.creations,
};

/** How many of `cost`'s requests the pacer makes wait, all sent on a fresh key at one instant. */
async function pacerWaits(cost: PartCost): Promise<number> {
	jest.useFakeTimers();
	try {
		const credential = { baseUrl: `http://plan.test/${randomUUID()}`, apiKey: 'key' };
		let waits = 0;
		for (let i = 0; i < cost.requests; i++) {
			let placed = false;
			const place = paceRequest(LIMITS, credential, i < cost.creations).then((release) => {
				placed = true;
				return release;
			});
			// A place free now is given without a timer; a full minute sets one.
			await jest.advanceTimersByTimeAsync(0);
			if (!placed) {
				waits++;
				await jest.advanceTimersByTimeAsync(61_000);
			}
			// Answered at once: the place stays taken for the minute after.
			(await place)();
		}
		return waits;
	} finally {
		jest.useRealTimers();
	}
}

const total = (parts: readonly PartCost[]): PartCost =>
	parts.reduce(
		(sum, p) => ({
			requests: sum.requests + p.requests,
			creations: sum.creations + p.creations,
		}),
		{ requests: 0, creations: 0 },
	);

test("each workspace of the demo's plan: the pacer makes no request wait, sent in one instant", async () => {
	const plan = planWorkspaces(DEMO_PARTS);
	expect(plan.flat()).toEqual(DEMO_PARTS.map((_, i) => i));
	for (const workspace of plan)
		expect(await pacerWaits(total(workspace.map((i) => DEMO_PARTS[i])))).toBe(0);
});

test('the old plan, parts 1 to 8 on one key, made the pacer wait (the test can fail)', async () => {
	expect(await pacerWaits(total(DEMO_PARTS.slice(0, 8)))).toBeGreaterThan(0);
});

test('a part that reads what the part before it made shares its workspace, or the plan refuses', () => {
	const plan = planWorkspaces(DEMO_PARTS);
	DEMO_PARTS.forEach((part, i) => {
		if (part.sameWorkspaceAsPrevious) expect(plan.find((w) => w.includes(i))).toContain(i - 1);
	});
	const big = { requests: KEY_BUDGET.requests - 1, creations: 0 };
	expect(planWorkspaces([big, { ...big, requests: 1 }])).toEqual([[0, 1]]);
	expect(planWorkspaces([big, { ...big, requests: 2 }])).toEqual([[0], [1]]);
	expect(() => planWorkspaces([big, { ...big, sameWorkspaceAsPrevious: true }])).toThrow(
		/alone would send more than one key gets a minute/,
	);
});

test('each part, run for real, sends no more than the plan reckons with', async () => {
	const hooks = new WebhookServer();
	await hooks.start();
	const log = jest.spyOn(console, 'log').mockImplementation(() => {});
	try {
		const sent = await runDemo(hooks);
		log.mockRestore();
		const over = sent
			.map((n, i) => ({ part: i + 1, sent: n, planned: DEMO_PARTS[i].requests }))
			.filter((p) => p.sent > p.planned);
		expect(over).toEqual([]);
	} finally {
		log.mockRestore();
		await hooks.close();
	}
}, 180_000);
