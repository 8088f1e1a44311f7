/**
 * What `npm run editor` (and the screenshots) add to the simulator's seed, whose own records are dated
 * around SEED_NOW, months back on the real clock the editor runs: a week of practice ending now, so
 * every template shows a result after the steps its notes give. Tier changes this week (the weekly
 * tier digest, the analytics' tiers), scored sessions including a low one (the coach alert, the
 * analytics' practice rows), an assignment that went past due yesterday (the past-due digest).
 */
import type { RunningSimulator } from '../../simulator';

const DAY = 86_400_000;

export function addThisWeek(sim: RunningSimulator): void {
	const { control } = sim;
	// Sessions d days back: Renewal Negotiation evaluates Negotiation, so a month apart the tier moves.
	// Bob gets good at negotiation; Carla slips; Dev starts and scores low this morning.
	for (const [who, scenario, score, daysAgo] of [
		['bob@acme.com', 'renewal-negotiation', 40, [30, 28, 26]],
		['bob@acme.com', 'renewal-negotiation', 98, [3, 2, 1]],
		['carla@acme.com', 'renewal-negotiation', 95, [30, 28, 26]],
		['carla@acme.com', 'renewal-negotiation', 30, [3, 2, 1]],
		['jane@acme.com', 'cold-call-opener', 88, [4, 2]],
		['dev@acme.com', 'cold-call-opener', 42, [0]],
	] as Array<[string, string, number, number[]]>)
		for (const d of daysAgo)
			control.addSession({ userEmail: who, scenario, score, lateByMs: d * DAY + 3_600_000 });
	const now = Date.parse(control.now());
	control.addAssignment({
		userEmail: 'erin@acme.com',
		scenario: 'cold-call-opener',
		status: 'past_due',
		dueDate: now - DAY,
	});
}
