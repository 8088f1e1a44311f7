import type { INode } from 'n8n-workflow';

/**
 * Whether this run is an AI tool call (the `…Tool` variant, or MCP's run without an execution): it
 * cannot wait for a webhook, and one execution may carry many calls.
 */
export function isToolContext(ctx: {
	getNode(): INode;
	getExecutionId(): string | undefined;
}): boolean {
	if (ctx.getNode().type.endsWith('Tool')) return true;
	const executionId = ctx.getExecutionId();
	return executionId === undefined || executionId === null || String(executionId).trim() === '';
}
