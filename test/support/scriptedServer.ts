import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	body: unknown;
	/** Requests being answered at the moment this one arrived (itself included). */
	inFlight: number;
}

export type Reply =
	| { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
	| { drop: true };

export type Handler = (request: SeenRequest) => Reply;

/**
 * A real HTTP server on 127.0.0.1 whose answers a test scripts request by request: for transport
 * rules (status codes, Retry-After, dropped connections, concurrency) that a faithful simulator is
 * not the right tool to provoke precisely.
 */
export class ScriptedServer {
	readonly requests: SeenRequest[] = [];
	private handler: Handler = () => ({
		status: 404,
		body: { error: { type: 'not_found', message: 'no script' } },
	});
	private server?: Server;
	private inFlight = 0;
	maxInFlight = 0;

	get baseUrl(): string {
		const { port } = this.server!.address() as AddressInfo;
		return `http://127.0.0.1:${port}/rest/v1`;
	}

	script(handler: Handler): void {
		this.handler = handler;
		this.requests.length = 0;
		this.maxInFlight = 0;
	}

	async start(): Promise<void> {
		this.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const url = new URL(req.url ?? '/', 'http://127.0.0.1');
				const text = Buffer.concat(chunks).toString('utf8');
				this.inFlight++;
				this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
				const seen: SeenRequest = {
					method: req.method ?? 'GET',
					path: url.pathname.replace(/^\/rest\/v1/, ''),
					query: Object.fromEntries(url.searchParams),
					headers: req.headers,
					body: text ? (JSON.parse(text) as unknown) : undefined,
					inFlight: this.inFlight,
				};
				this.requests.push(seen);
				const reply = this.handler(seen);
				const finish = () => {
					this.inFlight--;
					if ('drop' in reply) {
						req.socket.destroy();
						return;
					}
					send(res, reply);
				};
				const delay = 'drop' in reply ? 0 : (reply.delayMs ?? 0);
				if (delay > 0) setTimeout(finish, delay);
				else finish();
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
	}

	async stop(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
	}
}

function send(
	res: ServerResponse,
	reply: { status: number; body?: unknown; headers?: Record<string, string> },
) {
	const headers = { 'content-type': 'application/json', ...(reply.headers ?? {}) };
	res.writeHead(reply.status, headers);
	// A text body (an HTML page) goes out as it is; anything else as JSON.
	const raw = typeof reply.body === 'string' && !headers['content-type'].includes('json');
	res.end(
		reply.body === undefined ? '' : raw ? (reply.body as string) : JSON.stringify(reply.body),
	);
}

/** A list page as the service returns it, rows numbered from `start`. */
export function listPage(page: number, pageSize: number, total: number): unknown {
	const first = (page - 1) * pageSize;
	const count = Math.max(0, Math.min(pageSize, total - first));
	return {
		data: Array.from({ length: count }, (_, i) => ({ id: `row-${first + i + 1}` })),
		pagination: {
			page,
			page_size: pageSize,
			total_count: total,
			total_pages: Math.ceil(total / pageSize),
		},
	};
}

export const TEST_KEY = `svc_live_${'a1B2c3D4e5'.repeat(4)}`;
