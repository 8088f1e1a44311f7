import type { INode } from 'n8n-workflow';

/** An AI tool call (the `…Tool` variant, or MCP without an execution) cannot wait for a webhook. */
export function isToolContext(ctx: {
	getNode(): INode;
	getExecutionId(): string | undefined;
}): boolean {
	if (ctx.getNode().type.endsWith('Tool')) return true;
	const executionId = ctx.getExecutionId();
	return executionId === undefined || executionId === null || String(executionId).trim() === '';
}
