/**
 * How the demo's parts share workspaces so that no part waits (issue 57). A key's requests are
 * paced to a minute (transport/pacer.ts): a part that finds the key's minute full waits, silently, for
 * it to clear, however fast the parts before it ran. Counts, not times, decide it: a key that is sent
 * no more requests in all than the smallest limit its nodes pace to never makes one wait, on any
 * machine. So each part says the most it sends, and a part that would take its key past the limit
 * opens a workspace (and key) of its own.
 */
import { POLL_PACE, SERVICE_LIMITS } from '../nodes/shared/transport';

/** The most a part sends on its key (status reads back off from 1 s, so a slow machine adds few). */
export interface PartCost {
	requests: number;
	/** Scenario job and studio-session creations. */
	creations: number;
	/** Needs the workspace of the part before it (reads what that part made). */
	sameWorkspaceAsPrevious?: boolean;
}

/** What one key may be sent in all: the smallest limits the nodes pace to (Skill Tiers polls at 50). */
export const KEY_BUDGET: Readonly<PartCost> = {
	requests: Math.min(POLL_PACE.requestsPerMinute, SERVICE_LIMITS.requestsPerMinute),
	creations: SERVICE_LIMITS.creationsPerMinute,
};

/** The parts' indexes by workspace, in order: each workspace's parts fit its key's budget together. */
export function planWorkspaces(costs: readonly PartCost[], budget = KEY_BUDGET): number[][] {
	// A part with the parts that need its workspace after it moves as one.
	const units: number[][] = [];
	costs.forEach((cost, index) => {
		if (cost.sameWorkspaceAsPrevious && units.length > 0) units[units.length - 1].push(index);
		else units.push([index]);
	});
	const plan: number[][] = [];
	let used: PartCost = { requests: Infinity, creations: Infinity };
	for (const unit of units) {
		const cost = unit.reduce(
			(sum, i) => ({
				requests: sum.requests + costs[i].requests,
				creations: sum.creations + costs[i].creations,
			}),
			{ requests: 0, creations: 0 },
		);
		if (cost.requests > budget.requests || cost.creations > budget.creations)
			throw new Error(
				`part${unit.length > 1 ? 's' : ''} ${unit.map((i) => i + 1).join(', ')} alone would send more than one key gets a minute`,
			);
		if (
			used.requests + cost.requests > budget.requests ||
			used.creations + cost.creations > budget.creations
		) {
			plan.push([]);
			used = { requests: 0, creations: 0 };
		}
		plan[plan.length - 1].push(...unit);
		used = {
			requests: used.requests + cost.requests,
			creations: used.creations + cost.creations,
		};
	}
	return plan;
}
