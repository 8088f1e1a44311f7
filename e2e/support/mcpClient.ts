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
	inputSchema: {
		properties?: Record<string, { type?: string | string[]; description?: string }>;
		required?: string[];
	};
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

	/** `headers`: sent with every request of either transport (e.g. the trigger's Bearer token). */
	static async connect(
		url: string,
		kind: McpTransportKind,
		headers: Record<string, string> = {},
	): Promise<McpSession> {
		const client = new Client({ name: 'workspace-practice-e2e', version: '1.0.0' });
		const requestInit = { headers };
		const transport =
			kind === 'SSE'
				? new SSEClientTransport(new URL(url), { requestInit })
				: new StreamableHTTPClientTransport(new URL(url), { requestInit });
		await client.connect(transport);
		return new McpSession(client, kind);
	}

	async listTools(): Promise<ListedTool[]> {
		const { tools } = await this.client.listTools();
		return tools as ListedTool[];
	}

	async call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
		const result = await this.client.callTool({ name, arguments: args }, undefined, {
			timeout: 60000,
		});
		const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
		return {
			isError: result.isError === true,
			text: content.map((part) => part.text ?? '').join(''),
		};
	}

	async close(): Promise<void> {
		await this.client.close();
	}
}

/** Connects, retrying a first refusal briefly: n8n registers a published workflow's endpoint asynchronously. */
export async function connectWhenReady(
	url: string,
	kind: McpTransportKind,
	headers: Record<string, string> = {},
): Promise<McpSession> {
	let last: unknown;
	for (let attempt = 0; attempt < 20; attempt++) {
		try {
			return await McpSession.connect(url, kind, headers);
		} catch (error) {
			last = error;
			await new Promise((r) => setTimeout(r, 300));
		}
	}
	throw last instanceof Error ? last : new Error(String(last));
}
