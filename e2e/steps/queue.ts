/**
 * Queue mode only: the executions of this run were carried out by the worker process, not the main
 * one. Read from the worker's log ("Worker finished execution <id>"), after every other step.
 */
import type { SuiteContext } from '../context';
import { expect } from '../harness';

export async function queueSteps(ctx: SuiteContext): Promise<void> {
	if (!ctx.queueMode) return;
	await ctx.report.step('queue: the worker ran the executions (main only enqueued them)', async () => {
		const finished = [...ctx.n8n.log('worker').matchAll(/Worker finished execution (\S+)/g)].map((m) => m[1]);
		const mainRan = /Worker finished execution/.test(ctx.n8n.log('n8n'));
		expect(finished.length > 0, 'the worker log shows no finished execution');
		expect(!mainRan, 'the main process ran executions itself');
		return `${new Set(finished).size} executions finished on the worker`;
	});
}
