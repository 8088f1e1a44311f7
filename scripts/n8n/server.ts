/**
 * Starts and stops a real n8n process: a throwaway user folder, loopback only, no calls home, a log
 * file kept for failure reports. Also runs queue mode as n8n documents it: PostgreSQL, Redis, the main
 * process (editor, API, triggers), a webhook process (`n8n webhook`) that takes every production webhook
 * and resume call, and workers that run the executions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { HashProxy } from './hashProxy';
import type { N8nInstall } from './paths';

/** Fixed so the user folder's credentials stay readable between restarts of one run. */
const ENCRYPTION_KEY = 'workspace-practice-e2e-not-a-secret';

/** n8n colours its console log; the log file keeps the escapes, failure reports should not. */
const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

export interface QueueSettings {
	redisHost: string;
	redisPort: number;
	/** n8n supports only PostgreSQL in queue mode (scripts/n8n/postgres.ts). */
	postgres: { host: string; port: number; database: string; user: string; password: string };
	/** Worker processes (default 2), each running this many executions at once (default 5). */
	workers?: number;
	workerConcurrency?: number;
	/**
	 * Webhook processes (default 1). With more, each listens on a port of its own and a hash-routing
	 * proxy (hashProxy.ts, as nginx `hash $request_uri consistent`) takes the webhook URL in front.
	 */
	webhookProcesses?: number;
}

export interface StartOptions {
	install: N8nInstall;
	/** An existing folder (e.g. with the package already installed); default a new temp folder. */
	userFolder?: string;
	/** Whether `stop` removes the given `userFolder` too, as it removes a folder it made itself. */
	removeFolder?: boolean;
	port?: number;
	/** Extra environment for both processes. */
	env?: Record<string, string>;
	/** Queue mode: main enqueues, the webhook process takes webhooks, workers run executions. */
	queue?: QueueSettings;
	/**
	 * Profiling: every process runs with `--cpu-prof` and writes its V8 CPU profile into
	 * `<dir>/<process name>/` when it exits (after stop()); open it in Chrome DevTools.
	 */
	cpuProfileDir?: string;
	/** Seconds to wait for readiness (default 120). */
	readyTimeoutS?: number;
}

interface Proc {
	name: string;
	child: ChildProcess;
	logFile: string;
	exited: Promise<number | null>;
}

export class N8nServer {
	/** Editor, REST and public API. */
	readonly baseUrl: string;
	/** Where production webhooks and resume URLs go: the webhook process in queue mode, else main. */
	readonly webhookBaseUrl: string;
	private readonly procs: Proc[] = [];
	/** Ports of the webhook processes (queue mode); several sit behind `proxy`. */
	readonly webhookPorts: number[] = [];
	/** The hash-routing proxy in front of several webhook processes. */
	proxy?: HashProxy;

	private constructor(
		readonly options: StartOptions,
		readonly userFolder: string,
		readonly port: number,
		webhookPort: number,
		private readonly ownsFolder: boolean,
	) {
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.webhookBaseUrl = `http://127.0.0.1:${webhookPort}`;
	}

	static async start(options: StartOptions): Promise<N8nServer> {
		const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), 'wsp-n8n-'));
		const port = options.port ?? (await freePort());
		const webhookPort = options.queue ? await freePort() : port;
		const owns = !options.userFolder || options.removeFolder === true;
		const server = new N8nServer(options, userFolder, port, webhookPort, owns);
		try {
			const count = options.queue ? Math.max(1, options.queue.webhookProcesses ?? 1) : 0;
			if (count === 1) server.webhookPorts.push(webhookPort);
			if (count > 1) {
				for (let i = 0; i < count; i++) server.webhookPorts.push(await freePort());
				server.proxy = await HashProxy.start(server.webhookPorts, webhookPort);
			}
			await server.spawnAll();
		} catch (error) {
			// The caller never gets this server: hand over what its log says, then clean up.
			const message = `${error instanceof Error ? error.message : String(error)}\n${server.logTail()}`;
			await server.stop();
			throw new Error(message);
		}
		return server;
	}

	private async baseEnv(): Promise<NodeJS.ProcessEnv> {
		const { install, queue } = this.options;
		const env: NodeJS.ProcessEnv = {
			...process.env,
			// n8n 2.x runs on Node 24: its own binary first on PATH for the task runner it spawns.
			PATH: `${join(install.node, '..')}:${process.env.PATH ?? ''}`,
			N8N_USER_FOLDER: this.userFolder,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			WEBHOOK_URL: `${this.webhookBaseUrl}/`,
			N8N_EDITOR_BASE_URL: `${this.baseUrl}/`,
			N8N_SECURE_COOKIE: 'false',
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			// Stops a start-up fetch to the internet.
			N8N_DISABLED_MODULES: 'mcp-registry',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'debug',
			N8N_LOG_OUTPUT: 'console',
			DB_SQLITE_POOL_SIZE: '2',
			...this.options.env,
		};
		// The machine's own npm settings (nodedir=/usr) must not reach n8n's package installer.
		delete env.npm_config_nodedir;
		if (install.major === 1) {
			// isolated-vm does not build for Node 20; 1.x has no mcp-registry module to disable.
			env.N8N_EXPRESSION_ENGINE = 'legacy';
			delete env.N8N_DISABLED_MODULES;
		}
		if (queue) {
			Object.assign(env, {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: queue.redisHost,
				QUEUE_BULL_REDIS_PORT: String(queue.redisPort),
				// A prefix of its own, so two runs sharing a Redis never take each other's jobs.
				QUEUE_BULL_PREFIX: `wsp${this.port}`,
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: queue.postgres.host,
				DB_POSTGRESDB_PORT: String(queue.postgres.port),
				DB_POSTGRESDB_DATABASE: queue.postgres.database,
				DB_POSTGRESDB_USER: queue.postgres.user,
				DB_POSTGRESDB_PASSWORD: queue.postgres.password,
			});
			delete env.DB_SQLITE_POOL_SIZE;
		}
		return env;
	}

	private async spawnProc(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<Proc> {
		const logFile = join(this.userFolder, `${name}.log`);
		const fd = openSync(logFile, 'a');
		const profile = this.options.cpuProfileDir
			? ['--cpu-prof', `--cpu-prof-dir=${join(this.options.cpuProfileDir, name)}`]
			: [];
		const child = spawn(
			this.options.install.node,
			[...profile, this.options.install.bin, ...args],
			{
				env,
				cwd: this.userFolder,
				stdio: ['ignore', fd, fd],
			},
		);
		closeSync(fd);
		const exited = new Promise<number | null>((resolve) =>
			child.once('exit', (code) => resolve(code)),
		);
		const proc = { name, child, logFile, exited };
		this.procs.push(proc);
		return proc;
	}

	private async spawnMain(): Promise<void> {
		const env = await this.baseEnv();
		// As n8n's docs say for a webhook process: main then serves no production webhook itself.
		if (this.options.queue) env.N8N_DISABLE_PRODUCTION_MAIN_PROCESS = 'true';
		const proc = await this.spawnProc('n8n', ['start'], env);
		await this.waitReady(proc, this.options.readyTimeoutS ?? 120);
	}

	/** Main first (it runs the database migrations the others wait for), then the rest at once. */
	private async spawnAll(): Promise<void> {
		await this.spawnMain();
		if (!this.options.queue) return;
		const workers = Array.from({ length: this.options.queue.workers ?? 2 }, (_, i) =>
			this.spawnWorker(i + 1),
		);
		const webhooks = this.webhookPorts.map((p, i) => this.spawnWebhook(p, i + 1));
		await Promise.all([...webhooks, ...workers]);
	}

	/** Webhook process n logs to webhook.log (n = 1) or webhook-<n>.log. */
	private async spawnWebhook(port: number, n: number): Promise<void> {
		const env = await this.baseEnv();
		env.N8N_PORT = String(port);
		const proc = await this.spawnProc(n === 1 ? 'webhook' : `webhook-${n}`, ['webhook'], env);
		await this.waitUrl(
			proc,
			`http://127.0.0.1:${port}/healthz/readiness`,
			this.options.readyTimeoutS ?? 120,
		);
	}

	/**
	 * Stops every process and starts them again on the same ports, folder and database (the proxy,
	 * if any, keeps running): what an operator's restart of n8n does.
	 */
	async restart(env?: Record<string, string>): Promise<void> {
		await this.stopProcesses();
		// A restart may change settings (e2e/steps/durable.ts turns n8n's durable scheduler on).
		if (env) this.options.env = { ...this.options.env, ...env };
		this.procs.length = 0;
		await this.spawnAll();
	}

	/** Worker n logs to worker.log (n = 1) or worker-<n>.log. */
	private async spawnWorker(n: number): Promise<void> {
		const env = await this.baseEnv();
		const healthPort = await freePort();
		env.QUEUE_HEALTH_CHECK_ACTIVE = 'true';
		env.QUEUE_HEALTH_CHECK_PORT = String(healthPort);
		env.N8N_WORKER_SERVER_ADDRESS = '127.0.0.1';
		const concurrency = this.options.queue?.workerConcurrency ?? 5;
		const proc = await this.spawnProc(
			n === 1 ? 'worker' : `worker-${n}`,
			['worker', `--concurrency=${concurrency}`],
			env,
		);
		await this.waitUrl(
			proc,
			`http://127.0.0.1:${healthPort}/healthz/readiness`,
			this.options.readyTimeoutS ?? 120,
		);
	}

	/** Names of the running processes' logs: 'n8n' (main), 'webhook', 'worker', 'worker-2', ... */
	get processNames(): string[] {
		return this.procs.map((p) => p.name);
	}

	/** PIDs by process name, for memory probes. */
	pid(name = 'n8n'): number | undefined {
		return this.procs.find((p) => p.name === name)?.child.pid;
	}

	private async waitUrl(proc: Proc, url: string, timeoutS: number): Promise<void> {
		const deadline = Date.now() + timeoutS * 1000;
		let exitCode: number | null | undefined;
		void proc.exited.then((code) => (exitCode = code));
		while (Date.now() < deadline) {
			if (exitCode !== undefined)
				throw new Error(`${proc.name} exited with code ${exitCode} before it was ready`);
			try {
				const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
				if (res.ok) return;
			} catch {
				// not listening yet
			}
			await new Promise((r) => setTimeout(r, 500));
		}
		throw new Error(`${proc.name} was not ready at ${url} within ${timeoutS} s`);
	}

	/** The "ready" log line comes before n8n serves: wait for readiness, then for the settings route. */
	private async waitReady(proc: Proc, timeoutS: number): Promise<void> {
		await this.waitUrl(proc, `${this.baseUrl}/healthz/readiness`, timeoutS);
		await this.waitUrl(proc, `${this.baseUrl}/rest/settings`, timeoutS);
	}

	/** The last lines of every process's log, for failure reports. */
	logTail(lines = 40): string {
		return this.procs
			.map((p) => {
				let text = '';
				try {
					text = readFileSync(p.logFile, 'utf8');
				} catch {
					return `--- ${p.name}: no log`;
				}
				const tail = stripAnsi(text).trimEnd().split('\n').slice(-lines).join('\n');
				return `--- last ${lines} lines of ${p.logFile}\n${tail}`;
			})
			.join('\n');
	}

	/** The whole log of one process (see processNames). */
	log(name = 'n8n'): string {
		const proc = this.procs.find((p) => p.name === name);
		try {
			return proc ? readFileSync(proc.logFile, 'utf8') : '';
		} catch {
			return '';
		}
	}

	/**
	 * SIGTERM to each process by PID (workers and webhook first), SIGKILL after a grace period. n8n
	 * allows itself 30 s to shut down (N8N_GRACEFUL_SHUTDOWN_TIMEOUT); with --cpu-prof V8 writes the
	 * profile only once the process exits on its own, so profiling waits longer. After a callback burst
	 * the webhook process can take that long (up to n8n's own timeout, which exits it with code 1): a
	 * 20 s grace killed it and lost its profile. Slow or killed exits are logged.
	 */
	async stop({ keepFolder = false } = {}): Promise<void> {
		await this.stopProcesses();
		await this.proxy?.close();
		if (this.ownsFolder && !keepFolder) rmSync(this.userFolder, { recursive: true, force: true });
	}

	private async stopProcesses(): Promise<void> {
		const profiling = Boolean(this.options.cpuProfileDir);
		const graceMs = profiling ? 120_000 : 20_000;
		for (const proc of [...this.procs].reverse()) {
			if (proc.child.exitCode !== null || proc.child.signalCode !== null) continue;
			const sentAt = Date.now();
			proc.child.kill('SIGTERM');
			let timer: NodeJS.Timeout | undefined;
			const timedOut = await Promise.race([
				proc.exited.then(() => false),
				new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs))),
			]);
			// A pending grace timer would keep the caller's process alive after the last stop.
			clearTimeout(timer);
			if (timedOut) {
				console.warn(
					`n8n ${proc.name} (PID ${proc.child.pid}) still running ${graceMs / 1000} s after SIGTERM: SIGKILL${profiling ? ', so it writes no CPU profile' : ''}`,
				);
				proc.child.kill('SIGKILL');
				await proc.exited;
			} else if (profiling || Date.now() - sentAt > 5000) {
				console.log(
					`n8n ${proc.name} exited ${((Date.now() - sentAt) / 1000).toFixed(1)} s after SIGTERM (code ${proc.child.exitCode}, signal ${proc.child.signalCode})`,
				);
			}
		}
	}
}
