import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiListPage, MAX_PAGE_SIZE, REQUESTS_PER_DAY } from '../../shared/transport';
import type { SkillTiersSettings } from './settings';
import { SWEEP_REQUESTS_A_READ } from './sweep';

/** What the sweep costs a day, in requests: skills × ⌈members ÷ 100⌉ ÷ Sweep Every (Days). */
export const sweepCostPerDay = (skills: number, members: number, sweepDays: number): number =>
	Math.ceil((skills * Math.ceil(members / MAX_PAGE_SIZE)) / sweepDays);

/** The smallest Sweep Every (Days) that keeps the sweep within its share of the day. */
export const sweepDaysThatFit = (skills: number, members: number): number =>
	Math.ceil(sweepCostPerDay(skills, members, 1) / SWEEP_REQUESTS_A_READ);

/** The members in scope: those named, else the groups' (or workspace's), from a page of one row. */
async function membersInScope(ctx: IPollFunctions, query: IDataObject): Promise<number> {
	const named = ['user_ids', 'user_emails']
		.map((name) => query[name])
		.filter((list): list is string => typeof list === 'string' && list !== '')
		.reduce((sum, list) => sum + list.split(',').length, 0);
	if (named > 0) return named;
	const groups = typeof query.group_ids === 'string' ? { group_ids: query.group_ids } : {};
	return (await apiListPage(ctx, '/workspace/members', groups, 1, 1)).pagination.total_count;
}

/**
 * At activation (the first read): when the sweep would take more than its share of the day, says so in
 * n8n's log, naming the Sweep Every (Days) that fits. One request; a read that fails says nothing.
 * Returns the members counted (undefined: none asked, or the read failed), which the memory keeps to
 * cost the sweeps of skills not swept yet (sweep.ts).
 */
export async function warnIfSweepCannotFit(
	ctx: IPollFunctions,
	{ query, sweepDays }: SkillTiersSettings,
	skills: number,
): Promise<number | undefined> {
	const counted = skills ? await membersInScope(ctx, query).catch(() => undefined) : undefined;
	const members = counted ?? 0;
	const cost = sweepCostPerDay(skills, members, sweepDays);
	const share = SWEEP_REQUESTS_A_READ;
	if (cost <= share) return counted;
	const fit = sweepDaysThatFit(skills, members);
	ctx.logger.warn(
		`Workspace Practice Trigger "${ctx.getNode().name}" (Skill Tiers): its sweep would cost about ${cost} requests a day (${skills} skills × ⌈${members} members ÷ 100⌉ ÷ Sweep Every (Days) ${sweepDays}), more than a tenth of the workspace's ${REQUESTS_PER_DAY.toLocaleString('en-US')} a day. Set Options → Sweep Every (Days) to ${fit} or more to keep it within ${share}, or watch fewer skills (Skill Names or IDs) or members (Filters).`,
		{ node: ctx.getNode().name, sweepRequestsPerDay: cost, sweepDaysThatFit: fit },
	);
	return counted;
}
