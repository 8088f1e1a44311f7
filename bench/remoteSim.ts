/**
 * A simulator child process (simProcess.ts) and a small client for its control surface
 * (POST /__control/<action>), which is how another process drives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { RateLimits, RecordedRequest, RequestFilter } from '../simulator/index';
import type { SimProcessOptions } from './simProcess';

export interface BenchSimulator {
	baseUrl: string;
	apiKey: string;
	requests(filter?: RequestFilter): Promise<RecordedRequest[]>;
	clearRequests(): Promise<void>;
	setRateLimits(limits: Partial<RateLimits> | boolean): Promise<void>;
	close(): Promise<void>;
}

async function control<T>(origin: string, action: string, body: object = {}): Promise<T> {
	const answer = await fetch(`${origin}/__control/${action}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const payload = (await answer.json()) as {
		ok?: boolean;
		result?: T;
		error?: { message?: string };
	};
	if (!answer.ok || !payload.ok)
		throw new Error(`Simulator control ${action}: ${payload.error?.message ?? answer.status}`);
	return payload.result as T;
}

function firstLine(child: ChildProcess): Promise<string> {
	return new Promise((resolve, reject) => {
		let out = '';
		let err = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			out += chunk.toString('utf8');
			const end = out.indexOf('\n');
			if (end >= 0) resolve(out.slice(0, end));
		});
		child.stderr?.on('data', (chunk: Buffer) => {
			err += chunk.toString('utf8');
		});
		child.once('exit', (code) =>
			reject(new Error(`Simulator process exited (${code}): ${err.trim()}`)),
		);
	});
}

export async function startRemoteSimulator(options: SimProcessOptions): Promise<BenchSimulator> {
	const child = spawn(
		process.execPath,
		[join(__dirname, 'simProcess.js'), JSON.stringify(options)],
		{
			stdio: ['pipe', 'pipe', 'pipe'],
		},
	);
	const { baseUrl, apiKey } = JSON.parse(await firstLine(child)) as {
		baseUrl: string;
		apiKey: string;
	};
	const origin = new URL(baseUrl).origin;
	return {
		baseUrl,
		apiKey,
		requests: (filter = {}) => control<RecordedRequest[]>(origin, 'requests', filter),
		clearRequests: () => control<void>(origin, 'clearRequests'),
		setRateLimits: (limits) => control<void>(origin, 'setRateLimits', { limits }),
		close: () =>
			new Promise<void>((resolve) => {
				if (child.exitCode !== null) {
					resolve();
					return;
				}
				child.once('exit', () => resolve());
				child.stdin?.end();
			}),
	};
}
