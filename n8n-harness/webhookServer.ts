import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { WebhookAnswer, WebhookRequestInput } from './webhookCall';

export type WebhookRoute = (
	request: WebhookRequestInput,
	params: string[],
) => Promise<WebhookAnswer>;

/** Every request n8n's stand-in received, with what it answered. */
export interface ReceivedWebhook {
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	rawBody: string;
	answer: WebhookAnswer;
}

/**
 * A real HTTP server playing n8n's webhook endpoints (/webhook/<path>, /webhook-waiting/<id>), so
 * the simulator's callbacks travel over HTTP as they would to n8n. Bodies are parsed as n8n does:
 * JSON for JSON content types, the raw text otherwise (or when the JSON is broken).
 */
export class WebhookServer {
	readonly received: ReceivedWebhook[] = [];
	private readonly routes: Array<{ pattern: RegExp; handle: WebhookRoute }> = [];
	private server?: Server;
	baseUrl = '';

	route(pattern: RegExp, handle: WebhookRoute): void {
		this.routes.push({ pattern, handle });
	}

	async start(): Promise<void> {
		this.server = createServer((req, res) => void this.serve(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}

	private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks).toString('utf8');
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const query = Object.fromEntries(url.searchParams.entries());
		let body: unknown = rawBody;
		if (String(req.headers['content-type'] ?? '').includes('json')) {
			try {
				body = JSON.parse(rawBody);
			} catch {
				body = rawBody;
			}
		}
		const request: WebhookRequestInput = {
			method: req.method ?? 'POST',
			url: req.url ?? '/',
			headers: req.headers,
			query,
			body,
		};
		let answer: WebhookAnswer = { status: 404, body: { message: 'no such webhook' } };
		for (const { pattern, handle } of this.routes) {
			const match = pattern.exec(url.pathname);
			if (!match) continue;
			try {
				answer = await handle(request, match.slice(1));
			} catch (error) {
				answer = {
					status: 500,
					body: { message: error instanceof Error ? error.message : String(error) },
				};
			}
			break;
		}
		this.received.push({ path: url.pathname, query, headers: req.headers, rawBody, answer });
		const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
		res.writeHead(answer.status, { 'content-type': 'application/json' });
		res.end(payload);
	}
}
