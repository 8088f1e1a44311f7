/**
 * The Job Trigger's duplicate memory under n8n's own way of keeping static data (n8n-harness/
 * staticDataDeliveries.ts models 2.41.1 and 1.123.81): concurrent deliveries, writes that overwrite
 * each other in any order, and restarts (fresh node modules, a new process over what was written).
 * Expected counts come from the deliveries sent, not from the node's rules.
 */
import type { IDataObject } from 'n8n-workflow';

import type {
	N8nDeliveries as Deliveries,
	StoredWorkflow,
} from '../../n8n-harness/staticDataDeliveries';

const TRIGGER_TYPE = 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger';

type Harness = typeof import('../../n8n-harness/staticDataDeliveries');

/** A process start: node modules loaded afresh, so nothing of an earlier process's memory is left. */
async function startProcess(stored: StoredWorkflow, major: 1 | 2): Promise<Deliveries> {
	jest.resetModules();
	const { N8nDeliveries } = (await import('../../n8n-harness/staticDataDeliveries')) as Harness;
	return new N8nDeliveries(stored, major);
}

async function newWorkflow(): Promise<StoredWorkflow> {
	const { N8nDeliveries } = (await import('../../n8n-harness/staticDataDeliveries')) as Harness;
	return N8nDeliveries.storedWorkflow(TRIGGER_TYPE, {
		authentication: 'none',
		confirmWithApi: false,
	});
}

const callback = (id: string): IDataObject => ({ id, status: 'completed' });
const jobs = (n: number, prefix = 'job'): string[] =>
	Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);

/** Sends each callback and counts the executions started per job ID. */
async function deliverAll(n8n: Deliveries, ids: string[], together: boolean) {
	const started = new Map<string, number>();
	const count = (output: string[]) => {
		for (const id of output) started.set(id, (started.get(id) ?? 0) + 1);
	};
	if (together) {
		for (const result of await Promise.all(ids.map((id) => n8n.deliver(callback(id)))))
			count(result.output);
	} else {
		for (const id of ids) count((await n8n.deliver(callback(id))).output);
	}
	return started;
}

const total = (started: Map<string, number>) => [...started.values()].reduce((a, b) => a + b, 0);
const reversed = (n: number) => Array.from({ length: n }, (_, i) => n - 1 - i);

describe.each([2, 1] as const)('Job Trigger duplicate memory in n8n %i.x', (major) => {
	it('keeps every job delivered one at a time across a restart', async () => {
		const stored = await newWorkflow();
		const first = await startProcess(stored, major);
		for (const id of jobs(4)) {
			expect((await first.deliver(callback(id))).started).toBe(true);
			first.landAll();
		}
		const second = await startProcess(stored, major);
		const again = await deliverAll(second, jobs(4), false);
		second.landAll();
		expect(total(again)).toBe(0);
	});

	it('keeps every job of a burst whatever order the writes land in, across a restart', async () => {
		const stored = await newWorkflow();
		const first = await startProcess(stored, major);
		const started = await deliverAll(first, jobs(10), true);
		expect(total(started)).toBe(10);
		// The write prepared first lands last: it holds the least of what the process saw.
		first.landAll(reversed(first.pending.length));
		const second = await startProcess(stored, major);
		const again = await deliverAll(second, jobs(10), true);
		second.landAll();
		expect(total(again)).toBe(0);
	});

	it('starts one execution per job for pairs, triples and repeats mixed with new jobs, before and after a restart', async () => {
		const stored = await newWorkflow();
		const first = await startProcess(stored, major);
		const ids = jobs(12);
		// Pairs for jobs 1-6, triples for 7-12, all at once; writes land from the middle out.
		const burst = [
			...ids.slice(0, 6).flatMap((id) => [id, id]),
			...ids.slice(6).flatMap((id) => [id, id, id]),
		];
		const started = await deliverAll(first, burst, true);
		const order = first.pending
			.map((_, i) => i)
			.sort((a, b) => Math.abs(a - 15) - Math.abs(b - 15));
		first.landAll(order);
		// Sequential repeats and new jobs, interleaved, part of the writes still pending at the restart.
		const later = await deliverAll(first, ['late-1', ids[0], 'late-2', ids[7]], false);
		first.landAll(reversed(first.pending.length).slice(0, 2));
		for (const [id, n] of later) started.set(id, (started.get(id) ?? 0) + n);
		expect(Object.fromEntries(started)).toEqual(
			Object.fromEntries([...ids, 'late-1', 'late-2'].map((id) => [id, 1])),
		);
		const second = await startProcess(stored, major);
		const again = await deliverAll(second, [...ids, 'late-1', 'late-2'], true);
		second.landAll();
		// The writes not landed before the restart are lost with the process; the landed ones suffice.
		expect(Object.fromEntries(again)).toEqual({});
	});

	it('keeps the stored memory bounded', async () => {
		const stored = await newWorkflow();
		const n8n = await startProcess(stored, major);
		for (const chunk of Array.from({ length: 11 }, (_, c) => jobs(100, `c${c}`))) {
			await deliverAll(n8n, chunk, true);
			n8n.landAll();
		}
		const node = Object.values(stored.staticData ?? {})[0] as IDataObject;
		const entries = Object.keys((node.recentDeliveries ?? {}) as IDataObject);
		expect(entries.length).toBeLessThanOrEqual(1_000);
		// The newest are the ones kept.
		expect(entries).toContain('c10-100:completed');
		expect(entries).not.toContain('c0-1:completed');
	});
});
