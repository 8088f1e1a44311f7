/**
 * A small load balancer on 127.0.0.1 in front of several n8n webhook processes, standing in for nginx
 * `hash $request_uri consistent;`: a request goes to the process chosen by a hash of its request URI
 * (path and query string), so every repeat of one URI reaches the same process. MCP endpoints
 * (`/mcp/<path>/...`) are hashed on `/mcp/<path>` only: an MCP session (SSE stream and its message
 * posts) must stay on one process, as n8n's docs ask for several webhook replicas.
 * A backend that does not answer gives 502, as nginx does.
 */
import {
	Agent,
	createServer,
	request,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';

/** FNV-1a, 32 bit: stable across runs and processes, as a routing hash must be. */
export function uriHash(uri: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < uri.length; i++) {
		hash ^= uri.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash;
}

/** The part of the URI that picks the backend. */
export function routingKey(uri: string): string {
	const mcp = /^\/mcp\/[^/?]+/.exec(uri);
	return mcp ? mcp[0] : uri;
}

export class HashProxy {
	/** Requests routed to each backend, by index, since start. */
	readonly routed: number[];
	/** Answers the proxy gave itself because a backend did not answer. */
	badGateway = 0;
	// No keep-alive: a reused socket the backend has just closed would fail a POST (ECONNRESET), and a
	// POST cannot be retried safely.
	private readonly agent = new Agent({ keepAlive: false, maxSockets: 64 });

	private constructor(
		private readonly server: Server,
		readonly port: number,
		readonly backends: number[],
	) {
		this.routed = backends.map(() => 0);
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** The backend port a request URI goes to. */
	backendFor(uri: string): number {
		return this.backends[uriHash(routingKey(uri)) % this.backends.length];
	}

	static async start(backends: number[], listenPort: number): Promise<HashProxy> {
		const server = createServer();
		const proxy = new HashProxy(server, listenPort, backends);
		server.on('request', (req: IncomingMessage, res: ServerResponse) => proxy.forward(req, res));
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(listenPort, '127.0.0.1', () => resolve());
		});
		return proxy;
	}

	private forward(req: IncomingMessage, res: ServerResponse): void {
		const uri = req.url ?? '/';
		const backend = this.backendFor(uri);
		this.routed[this.backends.indexOf(backend)] += 1;
		const upstream = request(
			{
				host: '127.0.0.1',
				port: backend,
				method: req.method,
				path: uri,
				headers: req.headers,
				agent: this.agent,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => {
			this.badGateway += 1;
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end('bad gateway');
		});
		req.pipe(upstream);
	}

	async close(): Promise<void> {
		this.agent.destroy();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}
