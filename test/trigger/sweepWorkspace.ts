/**
 * The sweep tests' workspace (skillTiersSweepShare, skillTiersSweepCut): `skills` skills, each of the
 * simulator's `members` members with three call observations in every one (as the bench's workspaces),
 * so a skill's sweep reads every member. On a manual clock the test's mocked `sleep` moves.
 */
import { ManualClock, startSimulator, type RunningSimulator } from '../../simulator';
import { mulberry32 } from '../../simulator/state/random';

const HOUR = 3_600_000;

export async function startSweepWorkspace(
	members: number,
	skills: number,
	seed: number,
): Promise<{ clock: ManualClock; sim: RunningSimulator }> {
	const clock = new ManualClock(Date.parse('2026-03-02T09:00:00Z'));
	jest.spyOn(Date, 'now').mockImplementation(() => clock.now());
	const sim = await startSimulator({ clock, dataSize: { members } });
	const { store } = sim.control;
	const random = mulberry32(seed);
	const now = clock.now();
	store.data.skills.length = 0;
	for (let n = 0; n < skills; n++)
		store.data.skills.push({
			id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
			name: `Skill ${n}`,
			slug: `skill-${n}`,
			description: '',
			createdAt: now - 400 * 24 * HOUR,
		});
	for (const user of store.data.users.filter((u) => u.member))
		for (const { id } of store.data.skills)
			for (let k = 0; k < 3; k++)
				store.data.observations.push({
					userId: user.id,
					skillId: id,
					score: 20 + Math.floor(random() * 80),
					at: now - Math.floor(random() * 60 * 24 * HOUR),
					kind: 'call',
				});
	return { clock, sim };
}

/**
 * The workspace for a test file: started before all its tests (`each`: before each) and closed after,
 * Date.now's mock restored. The object is filled in the hook: use it inside tests and hooks only.
 */
export function useSweepWorkspace(
	members: number,
	skills: number,
	seed: number,
	each = false,
): { clock: ManualClock; sim: RunningSimulator } {
	const workspace = {} as { clock: ManualClock; sim: RunningSimulator };
	(each ? beforeEach : beforeAll)(async () => {
		Object.assign(workspace, await startSweepWorkspace(members, skills, seed));
	});
	(each ? afterEach : afterAll)(async () => {
		jest.restoreAllMocks();
		await workspace.sim.close();
	});
	return workspace;
}
