/**
 * The simulator in a child process of its own (bench/simProcess.ts run through tsx), with the control
 * calls this bench needs. The n8n under test reaches it over HTTP like the real service.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

import type {
	CallbackDelivery,
	JobTimings,
	RateLimits,
	RecordedRequest,
	RequestFilter,
} from '../../simulator/index';
import type { SimProcessOptions } from '../simProcess';

const REPO = resolve(__dirname, '..', '..');

export interface SimChild {
	baseUrl: string;
	apiKey: string;
	pid: number;
	requests(filter?: RequestFilter): Promise<RecordedRequest[]>;
	clearRequests(): Promise<void>;
	setRateLimits(limits: Partial<RateLimits> | boolean): Promise<void>;
	setJobTimings(timings: JobTimings): Promise<void>;
	finishJob(jobId: string): Promise<void>;
	redeliverCallback(jobId: string): Promise<CallbackDelivery>;
	callbacks(): Promise<CallbackDelivery[]>;
	waitForCallbacks(): Promise<void>;
	close(): Promise<void>;
}

export async function startSim(options: SimProcessOptions): Promise<SimChild> {
	const child = spawn(
		process.execPath,
		['--import', 'tsx', join(REPO, 'bench', 'simProcess.ts'), JSON.stringify(options)],
		{
			cwd: REPO,
			stdio: ['pipe', 'pipe', 'pipe'],
		},
	);
	const first = await new Promise<string>((done, fail) => {
		let out = '';
		let err = '';
		child.stdout.on('data', (chunk: Buffer) => {
			out += chunk.toString('utf8');
			const end = out.indexOf('\n');
			if (end >= 0) done(out.slice(0, end));
		});
		child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
		child.once('exit', (code) =>
			fail(new Error(`Simulator process exited (${code}): ${err.trim()}`)),
		);
	});
	const { baseUrl, apiKey } = JSON.parse(first) as { baseUrl: string; apiKey: string };
	const origin = new URL(baseUrl).origin;
	const control = async <T>(action: string, body: object = {}): Promise<T> => {
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
	};
	return {
		baseUrl,
		apiKey,
		pid: child.pid ?? 0,
		requests: (filter = {}) => control('requests', filter),
		clearRequests: () => control('clearRequests'),
		setRateLimits: (limits) => control('setRateLimits', { limits }),
		setJobTimings: (timings) => control('setJobTimings', timings),
		finishJob: (jobId) => control('finishJob', { jobId }),
		redeliverCallback: (jobId) => control('redeliverCallback', { jobId }),
		callbacks: () => control('callbacks'),
		waitForCallbacks: () => control('waitForCallbacks'),
		close: () =>
			new Promise<void>((done) => {
				if (child.exitCode !== null) return done();
				child.once('exit', () => done());
				child.stdin.end();
			}),
	};
}

/** The simulator adds generated rows to its seed (some hidden): size it so the list holds exactly `rows`. */
export async function startSimWithScenarios(
	rows: number,
	options: SimProcessOptions = {},
): Promise<SimChild> {
	let extra = rows;
	for (let attempt = 0; attempt < 8; attempt++) {
		const sim = await startSim({ ...options, dataSize: { scenarios: extra } });
		const answer = await fetch(`${sim.baseUrl}/scenarios?page_size=1`, {
			headers: { Authorization: `Bearer ${sim.apiKey}` },
		});
		const total = ((await answer.json()) as { pagination: { total_count: number } }).pagination
			.total_count;
		if (total === rows) {
			await sim.clearRequests();
			return sim;
		}
		await sim.close();
		extra += rows - total;
	}
	throw new Error(`Could not size /scenarios to exactly ${rows} rows`);
}
