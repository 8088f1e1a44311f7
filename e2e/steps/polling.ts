/**
 * The Knowledge Hub polling trigger in a real n8n: activated, it emits nothing from the past; each
 * change made in the simulator afterwards starts exactly one execution, at n8n's own poll times.
 *
 * n8n polls at most once a minute (three polls here), so this runs alongside the other steps. Poll times are read from
 * n8n's debug log ("Poll trigger initiated"), so each check waits for a poll that really happened.
 */
import { randomUUID } from 'node:crypto';

import type { Execution } from '../../scripts/n8n/api';
import { pollCount, requireCredential, type SuiteContext } from '../context';
import { expect, expectEqual, waitFor } from '../harness';
import { POLL_TRIGGER_TYPE } from '../../scripts/n8n/workflows';

const POLL_MS = 75_000;
const TITLE = 'E2E watcher page';

function items(execution: Execution): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData.runData ?? {};
	const first = Object.values(runs)[0]?.[0];
	return (first?.data?.main?.[0] ?? []).map((i) => i.json);
}

export async function pollingSteps(ctx: SuiteContext): Promise<void> {
	const { api, sim, report } = ctx;
	if (!ctx.packageNodeTypes.includes(POLL_TRIGGER_TYPE)) {
		report.skip('polling trigger', `${POLL_TRIGGER_TYPE} is not in the package yet`);
		return;
	}
	const name = `e2e Knowledge Hub watcher ${randomUUID().slice(0, 8)}`;
	let workflowId = '';
	const waitForPoll = async (after: number): Promise<number> =>
		await waitFor(
			`n8n's poll #${after + 1}`,
			async () => (pollCount(ctx, name) > after ? pollCount(ctx, name) : undefined),
			{
				timeoutMs: POLL_MS,
				intervalMs: 500,
			},
		);
	// The poll has started when the log says so; give it a moment to finish and save its execution.
	const settle = async (): Promise<void> => {
		await new Promise((r) => setTimeout(r, 3000));
	};

	const activated = await report.step(
		'polling: activated, first polls emit nothing from the past',
		async () => {
			const credential = requireCredential(ctx);
			const workflow = await api.createWorkflow({
				name,
				nodes: [
					{
						id: randomUUID(),
						name: 'Knowledge Hub Trigger',
						type: POLL_TRIGGER_TYPE,
						typeVersion: 1,
						position: [0, 0],
						parameters: {
							pollTimes: { item: [{ mode: 'everyMinute' }] },
							events: ['pageCreated', 'pagePublished'],
							// Other steps change pages at the same time: watch only this step's pages.
							filters: { titleContains: TITLE },
							// Read at every poll (n8n's every minute), not every 2 hours as by default.
							options: { maxReadsPerDay: 0 },
						},
						credentials: { workspacePracticeApi: credential },
					},
				],
				connections: {},
			});
			workflowId = workflow.id;
			await api.activate(workflowId);
			// Activation polls once, and n8n keeps no cursor from that poll: wait for the first scheduled one.
			const count = await waitForPoll(1);
			await settle();
			const executions = await api.executions(workflowId);
			expectEqual(executions.length, 0, 'executions before any change');
			return `${count} polls, no execution`;
		},
	);
	if (!activated) return;

	let created = '';
	const createdOk = await report.step('polling: a new page starts one execution', async () => {
		const before = pollCount(ctx, name);
		const page = sim.control.createPage({
			title: `${TITLE} ${randomUUID().slice(0, 6)}`,
			content: 'first draft',
		});
		created = page.id;
		await waitForPoll(before);
		const [execution] = await waitFor('an execution for the new page', async () => {
			const list = await api.executions(workflowId);
			return list.length ? list : undefined;
		});
		await settle();
		const all = await api.executions(workflowId);
		expectEqual(all.length, 1, 'executions after one change');
		const out = items(await api.execution(execution.id));
		expectEqual(out.length, 1, 'items in the execution');
		expect(
			JSON.stringify(out[0]).includes(created),
			`the execution does not carry page ${created}: ${JSON.stringify(out).slice(0, 300)}`,
		);
		return `1 execution with 1 item (${String(out[0].event ?? 'event')}), page ${created}`;
	});
	if (!createdOk) return;

	await report.step(
		'polling: publishing it starts one more, without repeating the first',
		async () => {
			const before = pollCount(ctx, name);
			sim.control.publishPage(created);
			await waitForPoll(before);
			const all = await waitFor('an execution for the publication', async () => {
				const list = await api.executions(workflowId);
				return list.length >= 2 ? list : undefined;
			});
			await settle();
			expectEqual((await api.executions(workflowId)).length, 2, 'executions after two changes');
			const newest = all.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));
			const out = items(await api.execution(newest.id));
			// The page was there at this poll too: only its publication may come out, not "created" again.
			expectEqual(out.length, 1, 'items in the second execution');
			expect(
				/published/i.test(String(out[0].event)),
				`expected a publication event, got ${String(out[0].event)}`,
			);
			return `2 executions for 2 changes; the second holds only ${String(out[0].event)}`;
		},
	);
	await api.deactivate(workflowId).catch(() => undefined);
}
