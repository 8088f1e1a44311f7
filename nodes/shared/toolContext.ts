import type { INode } from 'n8n-workflow';

/**
 * Whether this run is an AI tool call: the node's `…Tool` variant (what n8n makes of a `usableAsTool`
 * node for agents and the MCP Server Trigger), or no execution at all (MCP calls run without one).
 * A tool call cannot be paused for a webhook, and one execution may carry many distinct calls.
 */
export function isToolContext(ctx: {
	getNode(): INode;
	getExecutionId(): string | undefined;
}): boolean {
	if (ctx.getNode().type.endsWith('Tool')) return true;
	const executionId = ctx.getExecutionId();
	return executionId === undefined || executionId === null || String(executionId).trim() === '';
}
