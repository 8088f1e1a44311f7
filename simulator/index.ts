/** Public entry point: start a simulator of the whole service on 127.0.0.1. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isManualClock, RealClock, type Clock } from './clock';
import { Control, controlHttp } from './control';
import { Engine } from './engine';
import type { RateLimits } from './faults';
import { buildRouter } from './routes';
import { API_PREFIX, createHandler } from './server';
import { DEFAULT_SEED, type DataSize } from './state/seed';
import type { SourceTimings } from './state/sources';
import type { TerminalStatus, TimestampPrecision } from './state/store';
import type { JobTimings } from './state/types';

export { ManualClock, RealClock, type Clock } from './clock';
export { Control, type ObservationInput, type PageInput, type RequestFilter } from './control';
export type { RecordedRequest } from './engine';
export type { CallbackDelivery } from './callbacks';
export type { TerminalStatus, TimestampPrecision } from './state/store';
export { DEPLOYED_RATE_LIMITS, type RateLimits, type RateLimitUsage } from './faults';
export { SEED, type Fixtures } from './fixtures';
export { JOB_FAIL_MARKER } from './state/jobs';
export { SOURCE_FAIL_MARKER, SOURCE_HOLD_MARKER, type SourceTimings } from './state/sources';
export { SEED_NOW, SYSTEM_EMAIL_DOMAIN, type DataSize } from './state/seed';
export type { JobTimings } from './state/types';

/** Deterministic default key: `svc_live_` + 40 letters/digits. */
export const DEFAULT_API_KEY = 'svc_live_' + 'sim0000000000000000000000000000000000000';
export const API_KEY_FORMAT = /^svc_live_[A-Za-z0-9]{40}$/;

/** Demo timings: a job is processing after 1 s and done after 3 s. */
export const DEMO_JOB_TIMINGS: JobTimings = { queuedMs: 1000, processingMs: 2000 };
export const INSTANT_JOB_TIMINGS: JobTimings = { queuedMs: 0, processingMs: 0 };

export interface SimulatorOptions {
	/** 0 (default) picks a free port. */
	port?: number;
	/** The one key accepted; default DEFAULT_API_KEY. Must match svc_live_ + 40 letters/digits. */
	apiKey?: string;
	/** Default a real clock. Pass a ManualClock for deterministic tests. */
	clock?: Clock;
	/** Default DEMO_JOB_TIMINGS. */
	jobTimings?: JobTimings;
	/** Source extraction timings; default: follow jobTimings (pending = queuedMs, processing = processingMs). */
	sourceTimings?: SourceTimings;
	/** Default off. true = deployed limits (60/min, 10 creations/min, 1000/day). */
	rateLimits?: boolean | Partial<RateLimits>;
	/** Delay before every API response, in wall-clock ms. */
	latencyMs?: number;
	/** How timestamps are written: 'second' (default, as the deployed service) or 'millisecond'. */
	timestampPrecision?: TimestampPrecision;
	/** Terminal job statuses that send the callback: default ['completed'] (the spec); all three on request. */
	callbackStatuses?: readonly TerminalStatus[];
	/** Extra generated records on top of the fixed seed, e.g. { scenarios: 10000 }. */
	dataSize?: DataSize;
	/** Seed of the deterministic data; default 42 (the one SEED describes). */
	seed?: number;
}

export interface RunningSimulator {
	/** http://127.0.0.1:<port>/rest/v1 */
	baseUrl: string;
	port: number;
	apiKey: string;
	control: Control;
	close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
	const apiKey = options.apiKey ?? DEFAULT_API_KEY;
	if (!API_KEY_FORMAT.test(apiKey))
		throw new Error('apiKey must be svc_live_ followed by 40 letters or digits');
	const clock = options.clock ?? new RealClock();
	const engine = new Engine({
		clock,
		seed: options.seed ?? DEFAULT_SEED,
		dataSize: options.dataSize ?? {},
		jobTimings: options.jobTimings ?? DEMO_JOB_TIMINGS,
		sourceTimings: options.sourceTimings,
		rateLimits: options.rateLimits ?? false,
		latencyMs: options.latencyMs ?? 0,
		timestampPrecision: options.timestampPrecision,
		callbackStatuses: options.callbackStatuses,
	});
	const control = new Control(engine);
	const server: Server = createServer(
		createHandler(engine, buildRouter(engine), () => apiKey, controlHttp(control)),
	);

	// Time moves on its own: a ManualClock notifies on every move; a real clock is polled.
	const stopListening = isManualClock(clock) ? clock.onChange(() => engine.tick()) : undefined;
	const timer = isManualClock(clock)
		? undefined
		: setInterval(() => {
				if (engine.hasPendingWork()) engine.tick();
			}, 50);
	timer?.unref();

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;

	let closed: Promise<void> | undefined;
	return {
		baseUrl: `http://127.0.0.1:${port}${API_PREFIX}`,
		port,
		apiKey,
		control,
		close: () => {
			closed ??= (async () => {
				if (timer) clearInterval(timer);
				stopListening?.();
				await engine.callbacks.idle();
				await new Promise<void>((resolve, reject) => {
					server.close((err) => (err ? reject(err) : resolve()));
					server.closeAllConnections();
				});
			})();
			return closed;
		},
	};
}
