import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the simulator, for things the simulator's control cannot time
 * by itself: acting just before the n-th request of a poll (inject the simulator's own fault, or change
 * data between two list pages). Requests and answers are forwarded untouched.
 */
export class FaultProxy {
	private server?: Server;
	private count = 0;
	private hook?: (count: number, req: IncomingMessage) => void;
	/** Run before every request, whatever `onRequest` is set to (the rig's virtual time). */
	private readonly observers: Array<() => void> = [];
	baseUrl = '';

	constructor(private readonly target: string) {}

	async start(): Promise<this> {
		const target = new URL(this.target);
		this.server = createServer((req, res) => {
			this.count++;
			for (const observe of this.observers) observe();
			this.hook?.(this.count, req);
			const upstream = request(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers: req.headers,
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			upstream.on('error', () => res.destroy());
			req.pipe(upstream);
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		const { port } = this.server.address() as AddressInfo;
		this.baseUrl = `http://127.0.0.1:${port}${target.pathname}`;
		return this;
	}

	/** Runs `hook` before forwarding each request, with its number counted from now (1 = the next). */
	onRequest(hook?: (count: number, req: IncomingMessage) => void): void {
		this.count = 0;
		this.hook = hook;
	}

	/** Runs `observer` before every request from now on (the test's `onRequest` hook runs after it). */
	observe(observer: () => void): void {
		this.observers.push(observer);
	}

	async close(): Promise<void> {
		await new Promise<void>((resolve) => {
			this.server?.closeAllConnections();
			this.server?.close(() => resolve());
		});
	}
}
