/** What n8n's editor lists from the package: the nodes, the credential, and the AI-tool variant. */
import type { SuiteContext } from '../context';
import { expect } from '../harness';
import { ACTION_TYPE, TOOL_TYPE } from '../../scripts/n8n/workflows';

export async function listingSteps(ctx: SuiteContext): Promise<void> {
	const { api, report } = ctx;
	await report.step('editor: n8n lists every node of the package', async () => {
		const names = await api.nodeTypeNames();
		const missing = ctx.packageNodeTypes.filter((type) => !names.includes(type));
		expect(missing.length === 0, `not listed: ${missing.join(', ')}`);
		return ctx.packageNodeTypes.join(', ');
	});
	await report.step('tool: n8n lists the AI-tool variant of the action node', async () => {
		const names = await api.nodeTypeNames();
		expect(names.includes(ACTION_TYPE), `${ACTION_TYPE} is not listed`);
		expect(names.includes(TOOL_TYPE), `${TOOL_TYPE} is not listed (is usableAsTool set?)`);
		return TOOL_TYPE;
	});
}
