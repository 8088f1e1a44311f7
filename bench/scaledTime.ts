/**
 * Running the service's minutes in seconds. The simulator reads time from a Clock; a ScaledClock runs
 * `scale` times faster than the wall clock, so its rate-limit windows and job timings shrink by that
 * factor. What the service tells the client about time must shrink too: the proxy below divides every
 * Retry-After (header and body) by the scale, so the node waits real seconds that match.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Clock } from '../simulator/index';

export class ScaledClock implements Clock {
	private readonly wallStart = Date.now();

	constructor(
		readonly scale: number,
		private readonly simStart = Date.parse('2026-03-16T12:00:00.000Z'),
	) {}

	now(): number {
		return this.simStart + (Date.now() - this.wallStart) * this.scale;
	}
}

export interface ScalingProxy {
	/** Same path layout as the simulator's base URL, on the proxy's port. */
	baseUrl: string;
	/** 429 answers that passed through. */
	rateLimited(): number;
	resetCounts(): void;
	close(): Promise<void>;
}

function scaleSeconds(value: unknown, scale: number): unknown {
	const seconds = typeof value === 'string' ? Number(value) : value;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return value;
	return Math.round((seconds / scale) * 1000) / 1000;
}

/** Rewrites `retry_after` wherever the error body carries it (top level or inside `error`). */
function scaleBody(raw: Buffer, scale: number): Buffer {
	try {
		const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
		if ('retry_after' in body) body.retry_after = scaleSeconds(body.retry_after, scale);
		const error = body.error as Record<string, unknown> | undefined;
		if (error && typeof error === 'object' && 'retry_after' in error) {
			error.retry_after = scaleSeconds(error.retry_after, scale);
		}
		return Buffer.from(JSON.stringify(body));
	} catch {
		return raw;
	}
}

/** A pass-through HTTP proxy in front of the simulator that converts its seconds into real seconds. */
export async function startScalingProxy(
	targetBaseUrl: string,
	scale: number,
): Promise<ScalingProxy> {
	const target = new URL(targetBaseUrl);
	let rateLimited = 0;
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const upstream = request(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers: { ...req.headers, host: target.host },
				},
				(answer) => {
					const parts: Buffer[] = [];
					answer.on('data', (chunk: Buffer) => parts.push(chunk));
					answer.on('end', () => {
						let body: Buffer = Buffer.concat(parts);
						const headers: IncomingHttpHeaders = { ...answer.headers };
						if (answer.statusCode === 429) {
							rateLimited++;
							body = scaleBody(body, scale);
							if (headers['retry-after'] !== undefined) {
								headers['retry-after'] = String(scaleSeconds(headers['retry-after'], scale));
							}
						}
						headers['content-length'] = String(body.length);
						res.writeHead(answer.statusCode ?? 502, headers);
						res.end(body);
					});
				},
			);
			upstream.on('error', () => res.destroy());
			upstream.end(Buffer.concat(chunks));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
		rateLimited: () => rateLimited,
		resetCounts: () => {
			rateLimited = 0;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
