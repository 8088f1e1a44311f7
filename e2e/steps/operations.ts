/**
 * Every operation of the action node, each in its own workflow (Webhook → Workspace Practice) run by
 * n8n: the items it answers with and the request the simulator received are both checked.
 */
import { CASES, type CaseContext, type Item } from '../cases';
import { requireCredential, uniquePath, type SuiteContext } from '../context';
import { CheckError, expect } from '../harness';
import { listOperations } from '../operations';
import { operationWorkflow } from '../../scripts/n8n/workflows';

export async function operationSteps(ctx: SuiteContext): Promise<void> {
	const { api, sim, report } = ctx;
	const operations = await listOperations(ctx.packageDir);
	const caseCtx: CaseContext = { fx: ctx.fx, sim };
	await report.step('operations: listed from the node description', async () => {
		expect(operations.length > 0, 'the node offers no operations');
		const stale = Object.keys(CASES).filter(
			(key) => !operations.some((op) => `${op.resource}:${op.operation}` === key),
		);
		return `${operations.length} operations${stale.length ? ` (cases for operations the node lacks: ${stale.join(', ')})` : ''}`;
	});

	for (const op of operations) {
		const key = `${op.resource}:${op.operation}`;
		const testCase = CASES[key];
		await report.step(`operation ${op.label}`, async () => {
			if (!testCase)
				throw new CheckError(`no end-to-end case for "${key}": add one to e2e/cases.ts`);
			const credential = requireCredential(ctx);
			const path = uniquePath(`op-${op.resource}-${op.operation}`.toLowerCase());
			const params = await testCase.params(caseCtx);
			const workflow = await api.createWorkflow(
				operationWorkflow(`e2e ${op.label}`, path, params, credential),
			);
			try {
				await api.activate(workflow.id);
				sim.control.clearRequests();
				const res = await api.callWebhook(path);
				if (res.status !== 200) {
					const [execution] = await api.executions(workflow.id).catch(() => []);
					const error = execution?.data?.resultData.error;
					throw new CheckError(
						`n8n answered ${res.status} ${JSON.stringify(res.body)}; execution error: ${JSON.stringify(error ?? 'none')}`,
					);
				}
				const [method, pattern] = testCase.request;
				const sent = sim.control
					.requests()
					.filter((r) => r.method === method && pattern.test(r.path));
				expect(
					sent.length >= 1,
					`the simulator received no ${method} ${String(pattern)}; it got: ${sim.control
						.requests()
						.map((r) => `${r.method} ${r.path}`)
						.join(', ')}`,
				);
				expect(
					sent.every((r) => r.headers.authorization === `Bearer ${sim.apiKey}`),
					'a request lacked the Bearer key',
				);
				return testCase.check(res.body as Item[], caseCtx);
			} finally {
				await api.deactivate(workflow.id).catch(() => undefined);
				await api.deleteWorkflow(workflow.id).catch(() => undefined);
			}
		});
	}
}
