/**
 * A chat service's incoming webhook on 127.0.0.1 (as Slack, Google Chat or Mattermost offer): it
 * records every message posted to it and answers 200, so a step can check what a workflow sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
	path: string;
	contentType: string;
	body: unknown;
}

export class ChatStub {
	private constructor(
		private readonly server: Server,
		readonly baseUrl: string,
		readonly messages: ChatMessage[],
	) {}

	static async start(): Promise<ChatStub> {
		const messages: ChatMessage[] = [];
		const server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const raw = Buffer.concat(chunks).toString('utf8');
				let body: unknown = raw;
				try {
					body = JSON.parse(raw);
				} catch {
					// Kept as text: the check then says what arrived.
				}
				messages.push({
					path: req.url ?? '/',
					contentType: String(req.headers['content-type'] ?? ''),
					body,
				});
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		return new ChatStub(server, `http://127.0.0.1:${port}`, messages);
	}

	/** Messages posted to one path. */
	at(path: string): ChatMessage[] {
		return this.messages.filter((m) => m.path === path);
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}
