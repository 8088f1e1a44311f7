/** Shared set-up for the simulator tests: a simulator on a ManualClock and an axios client. */
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import type { z } from 'zod';
import {
	INSTANT_JOB_TIMINGS,
	ManualClock,
	startSimulator,
	type Control,
	type RunningSimulator,
	type SimulatorOptions,
} from '../../simulator';
import { errorEnvelopeSchema } from '../../simulator/schemas';

export interface TestSim {
	sim: RunningSimulator;
	api: AxiosInstance;
	clock: ManualClock;
	control: Control;
	close(): Promise<void>;
}

/** Instant jobs and a ManualClock unless the options say otherwise. */
export async function bootSim(options: SimulatorOptions = {}): Promise<TestSim> {
	const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock();
	const sim = await startSimulator({ clock, jobTimings: INSTANT_JOB_TIMINGS, ...options });
	const api = axios.create({
		baseURL: sim.baseUrl,
		headers: { Authorization: `Bearer ${sim.apiKey}` },
		validateStatus: () => true,
	});
	return { sim, api, clock, control: sim.control, close: () => sim.close() };
}

/** Asserts the status and parses the body with the schema (throws with the zod issues on mismatch). */
export function expectOk<S extends z.ZodTypeAny>(
	res: AxiosResponse,
	schema: S,
	status = 200,
): z.infer<S> {
	if (res.status !== status)
		throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.data)}`);
	return schema.parse(res.data) as z.infer<S>;
}

/**
 * Asserts an error envelope. `code: null` asserts that no code is present.
 * `mentions` must appear in the message (the field or identifier it names).
 */
export function expectError(
	res: AxiosResponse,
	status: number,
	type: string,
	code?: string | null,
	mentions?: string,
): { type: string; code?: string; message: string; retry_after?: number } {
	if (res.status !== status)
		throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.data)}`);
	const { error } = errorEnvelopeSchema.parse(res.data);
	expect(error.type).toBe(type);
	if (code === null) expect(error.code).toBeUndefined();
	else if (code !== undefined) expect(error.code).toBe(code);
	if (mentions !== undefined) expect(error.message).toContain(mentions);
	return error;
}

export const DAY = 86_400_000;

export interface ReceivedCallback {
	url: string;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

/** A webhook receiver on 127.0.0.1 answering `status` and keeping what it got. */
export async function startReceiver(
	status = 200,
): Promise<{ url: string; received: ReceivedCallback[]; close(): Promise<void> }> {
	const { createServer } = await import('node:http');
	const received: ReceivedCallback[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			received.push({
				url: req.url ?? '',
				headers: req.headers,
				body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
			});
			res.writeHead(status).end();
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		close: () =>
			new Promise<void>((r) => {
				server.closeAllConnections();
				server.close(() => r());
			}),
	};
}
