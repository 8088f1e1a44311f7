/**
 * Skill Tiers at activation (issue 40): when the sweep of the chosen skills and members cannot fit a
 * tenth of the workspace's day at this Sweep Every (Days), n8n's log says so, naming the setting and the
 * value that fits; when it fits, the log says nothing. The first read costs the skills list and one
 * count of the members, and emits nothing.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { ManualClock, startSimulator, type RunningSimulator } from '../../simulator';
import { PollHarness } from '../../n8n-harness/pollHarness';
import {
	sweepCostPerDay,
	sweepDaysThatFit,
} from '../../nodes/WorkspacePracticeTrigger/skillTiers/fit';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: async () => {} }));

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({
		clock: new ManualClock(Date.parse('2026-03-02T12:00:00Z')),
		dataSize: { members: 2000 },
	});
	// Twelve skills: at 2,000 members their sweep needs more than one day's share at Sweep Every 1.
	const skills = sim.control.store.data.skills;
	for (let i = skills.length; i < 12; i++)
		skills.push({
			id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
			name: `Skill ${i + 1}`,
			slug: `skill-${i + 1}`,
			description: 'Added for the test.',
			createdAt: Date.parse('2026-01-02T12:00:00Z'),
		});
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.clearRequests());

const ours = (calls: unknown[][]) =>
	calls.map((call) => String(call[0])).filter((text) => text.includes('(Skill Tiers)'));

async function activate(sweepDays: number): Promise<string[]> {
	const warn = jest.spyOn(Container.get(Logger), 'warn').mockImplementation(() => {});
	try {
		const trigger = new PollHarness({
			parameters: {
				triggerOn: 'skillTiers',
				skillTierEvents: ['tierChanged'],
				skillTierOptions: { sweepDays },
			},
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			workflow: { id: `fit-${sweepDays}`, name: 'Tier alerts' },
		});
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.items).toEqual([]);
		return ours(warn.mock.calls);
	} finally {
		warn.mockRestore();
	}
}

test('a sweep over its share of the day is named in the log at activation, with the value that fits', async () => {
	const skills = sim.control.store.data.skills.length;
	const members = sim.control.store.data.users.filter((u) => u.member).length;
	const fit = sweepDaysThatFit(skills, members);
	expect(fit).toBeGreaterThan(1);
	expect(sweepCostPerDay(skills, members, fit)).toBeLessThanOrEqual(100);
	expect(sweepCostPerDay(skills, members, fit - 1)).toBeGreaterThan(100);

	const warnings = await activate(fit - 1);
	expect(warnings).toHaveLength(1);
	expect(warnings[0]).toContain(`Set Options → Sweep Every (Days) to ${fit} or more`);
	expect(warnings[0]).toContain(`${skills} skills × ⌈${members} members ÷ 100⌉`);
	expect(
		sim.control
			.requests()
			.map((r) => r.path)
			.sort(),
	).toEqual(['/skills', '/workspace/members']);

	expect(await activate(fit)).toEqual([]);
});

test('the cost formula: skills × ⌈members ÷ 100⌉ ÷ Sweep Every (Days), rounded up', () => {
	expect(sweepCostPerDay(80, 2000, 7)).toBe(229);
	expect(sweepCostPerDay(80, 2000, 30)).toBe(54);
	expect(sweepDaysThatFit(80, 2000)).toBe(16);
	expect(sweepDaysThatFit(20, 200)).toBe(1);
});
