/**
 * Skill Tiers → Tier Changed in a real n8n (`--steps=skill-tiers`), on a simulator of its own: the
 * trigger reading at every poll (Options → Max Reads a Day 0; the quota under Poll Times is
 * held in the jest tests), activated; the first scheduled poll emits nothing from the past; tiers
 * move; the next poll emits exactly the changes the simulator's state holds; a later poll nothing.
 */
import { randomUUID } from 'node:crypto';

import type { Execution } from '../../scripts/n8n/api';
import { proficiency } from '../../simulator/state/analytics';
import { pollCount, type SuiteContext } from '../context';
import { expectEqual, waitFor } from '../harness';
import { ownSimulator, type OwnSimulator } from '../support/toolResults';
import { POLL_TRIGGER_TYPE } from '../../scripts/n8n/workflows';

const POLL_MS = 75_000;
const DAY = 86_400_000;
const TRIGGER = 'Skill Tiers';
type Json = Record<string, unknown>;

function triggerItems(execution: Execution): Json[] {
	const run = execution.data?.resultData.runData[TRIGGER]?.[0];
	return (run?.data?.main?.[0] ?? []).map((i) => i.json);
}

const keyOf = (item: Json) =>
	`${String((item.member as Json).email)}|${String(item.tier_before)}>${String(item.tier_after)}`;

export async function skillTierSteps(ctx: SuiteContext): Promise<void> {
	const { api, report } = ctx;
	let own: OwnSimulator | undefined;
	let workflowId = '';
	try {
		await report.step(
			'skill-tiers: Tier Changed fires once per member whose tier moved, nothing from the past, nothing again',
			async () => {
				own = await ownSimulator(ctx, 'skill tiers');
				const { control } = own.sim;
				const { store } = control;
				const skill = control.fixtures().skills.negotiation.id;
				// Practice as scored roleplay sessions on a scenario that evaluates Negotiation, d days back:
				// the trigger finds who practised from the sessions list (calls wait for its sweep).
				const observe = (who: string, score: number, days: number[]) => {
					for (const d of days)
						control.addSession({
							userEmail: who,
							scenario: 'renewal-negotiation',
							score,
							lateByMs: d * DAY,
						});
				};
				observe('bob@acme.com', 40, [30, 28, 26]);
				observe('carla@acme.com', 95, [30, 28, 26]);
				const name = `e2e skill tiers ${randomUUID().slice(0, 8)}`;
				const created = await api.createWorkflow({
					name,
					nodes: [
						{
							id: randomUUID(),
							name: TRIGGER,
							type: POLL_TRIGGER_TYPE,
							typeVersion: 1,
							position: [0, 0],
							parameters: {
								pollTimes: { item: [{ mode: 'everyMinute' }] },
								triggerOn: 'skillTiers',
								skillTierEvents: ['tierChanged'],
								skillTierSkills: [skill],
								skillTierFilters: { exclude_system_users: true },
								skillTierOptions: { maxReadsPerDay: 0 },
							},
							credentials: { workspacePracticeApi: own.credential },
						},
					],
					connections: {},
				});
				workflowId = created.id;
				await api.activate(created.id);
				const polled = async (n: number) => {
					await waitFor(`n8n's poll #${n}`, async () => pollCount(ctx, name) >= n, {
						timeoutMs: POLL_MS,
						intervalMs: 500,
					});
					await new Promise((r) => setTimeout(r, 4000));
				};
				await polled(2);
				expectEqual((await api.executions(created.id)).length, 0, 'executions from the past');

				// Bob up, Carla down, Erin her first tier, the system user left out.
				observe('bob@acme.com', 100, [0, 0, 0, 0, 0, 0]);
				observe('carla@acme.com', 10, [0, 0, 0, 0, 0, 0]);
				observe('erin@acme.com', 80, [0, 0, 0]);
				observe('support@exec.com', 90, [0, 0, 0]);
				const obs = store.data.observations.filter((o) => o.skillId === skill);
				const tiers = (asOf: number) =>
					new Map(proficiency(obs, asOf).map((p) => [p.userId, p.tier as string]));
				const then = tiers(Date.parse(control.now()) - 60_000);
				const want = [...tiers(Date.parse(control.now()))]
					.filter(([id, tier]) => {
						const user = store.userById(id);
						return (
							user?.member &&
							!user.email.endsWith('@exec.com') &&
							(then.get(id) ?? 'insufficient_data') !== tier
						);
					})
					.map(
						([id, tier]) =>
							`${store.userById(id)!.email}|${then.get(id) ?? 'insufficient_data'}>${tier}`,
					)
					.sort();
				await polled(pollCount(ctx, name) + 1);
				const executions = await waitFor('the tier change execution', async () => {
					const list = await api.executions(created.id);
					return list.length >= 1 ? list : undefined;
				});
				const full = await Promise.all(executions.map(async (e) => await api.execution(e.id)));
				const got = full.flatMap(triggerItems).map(keyOf).sort();
				expectEqual(got, want, 'tier changes emitted');
				await polled(pollCount(ctx, name) + 1);
				expectEqual(
					(await api.executions(created.id)).length,
					executions.length,
					'executions after a quiet poll',
				);
				return `${got.length} events: ${got.join(', ')}`;
			},
		);
	} finally {
		if (workflowId) await api.deactivate(workflowId).catch(() => undefined);
		await own?.sim.close();
	}
}
