/**
 * An MCP client from the official TypeScript SDK (@modelcontextprotocol/sdk, the version n8n 2.41
 * ships), over either transport n8n's MCP Server Trigger serves: streamable HTTP (POST) or SSE (GET
 * stream + POSTed messages).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export type McpTransportKind = 'streamable HTTP' | 'SSE';

export interface ListedTool {
	name: string;
	description?: string;
	inputSchema: { properties?: Record<string, { type?: string | string[]; description?: string }>; required?: string[] };
}

export interface ToolOutcome {
	isError: boolean;
	/** The text content, joined. */
	text: string;
}

export class McpSession {
	private constructor(
		private readonly client: Client,
		readonly kind: McpTransportKind,
	) {}

	static async connect(url: string, kind: McpTransportKind): Promise<McpSession> {
		const client = new Client({ name: 'workspace-practice-e2e', version: '1.0.0' });
		const transport = kind === 'SSE' ? new SSEClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url));
		await client.connect(transport);
		return new McpSession(client, kind);
	}

	async listTools(): Promise<ListedTool[]> {
		const { tools } = await this.client.listTools();
		return tools as ListedTool[];
	}

	async call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
		const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 60000 });
		const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
		return { isError: result.isError === true, text: content.map((part) => part.text ?? '').join('') };
	}

	async close(): Promise<void> {
		await this.client.close();
	}
}
