/**
 * Queue mode only: the executions of this run were carried out by the workers, not by the main process
 * nor the webhook process, and production webhooks reached the webhook process (main serves none).
 * Read from the logs ("Worker finished execution <id>"), after every other step.
 */
import type { SuiteContext } from '../context';
import { expect } from '../harness';

export async function queueSteps(ctx: SuiteContext): Promise<void> {
	if (!ctx.queueMode) return;
	await ctx.report.step(
		'queue: the workers ran the executions (main and the webhook process only enqueued them)',
		async () => {
			const workers = ctx.n8n.processNames.filter((name) => name.startsWith('worker'));
			expect(workers.length === 2, `expected 2 workers, found ${workers.join(', ') || 'none'}`);
			const perWorker = workers.map(
				(name) =>
					new Set(
						[...ctx.n8n.log(name).matchAll(/Worker finished execution (\S+)/g)].map((m) => m[1]),
					).size,
			);
			const total = perWorker.reduce((a, b) => a + b, 0);
			expect(total > 0, 'no worker log shows a finished execution');
			for (const other of ['n8n', 'webhook']) {
				expect(
					!/Worker finished execution/.test(ctx.n8n.log(other)),
					`the ${other} process ran executions itself`,
				);
			}
			return `${total} executions finished on the workers (${perWorker.join(' + ')})`;
		},
	);
	await ctx.report.step('queue: production webhooks went to the webhook process', async () => {
		expect(
			ctx.n8n.webhookBaseUrl !== ctx.n8n.baseUrl,
			"no webhook process: webhooks share main's address",
		);
		// Main started with N8N_DISABLE_PRODUCTION_MAIN_PROCESS: a webhook path there is not served.
		const atMain = await fetch(`${ctx.n8n.baseUrl}/webhook/no-such-path`, { method: 'POST' });
		expect(
			atMain.status === 404,
			`main answered ${atMain.status} for /webhook/ (expected 404: not served there)`,
		);
		const received = (ctx.n8n.log('webhook').match(/Received webhook "POST"/g) ?? []).length;
		return `main serves no /webhook/; the webhook process log shows ${received} POST webhook calls`;
	});
}
