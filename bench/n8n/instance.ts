/**
 * The n8n under test: the pinned n8n 2.x from the shared cache with the packed package installed as a
 * community package, in regular mode (SQLite, one process) or in queue mode as n8n documents it
 * (PostgreSQL + Redis, main + webhook process + 2 workers). Logs at `warn`: debug logging would be
 * part of what is measured.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8nApi } from '../../scripts/n8n/api';
import { installIntoUserFolder } from '../../scripts/n8n/pack';
import { ensureInstalled } from '../../scripts/n8n/paths';
import type { PostgresHandle } from '../../scripts/n8n/postgres';
import type { RedisHandle } from '../../scripts/n8n/redis';
import { N8nServer } from '../../scripts/n8n/server';

export interface BenchN8n {
	n8n: N8nServer;
	api: N8nApi;
	/** Settings given on top of the bench's own (a diagnosis run). */
	env?: Record<string, string>;
	stop(): Promise<void>;
}

export interface QueueBackends {
	redis: RedisHandle;
	postgres: PostgresHandle;
	/** Executions each worker runs at once. */
	workerConcurrency: number;
}

export async function startN8n(
	tarball: string,
	queue?: QueueBackends,
	env?: Record<string, string>,
): Promise<BenchN8n> {
	const userFolder = mkdtempSync(join(tmpdir(), 'wsp-bench-n8n-'));
	installIntoUserFolder(tarball, userFolder);
	const n8n = await N8nServer.start({
		install: ensureInstalled(2),
		userFolder,
		removeFolder: true,
		// BENCH_N8N_CPU_PROF=<dir>: a V8 CPU profile of each n8n process, to see where its time goes.
		cpuProfileDir: process.env.BENCH_N8N_CPU_PROF,
		env: { N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'warn', N8N_PAYLOAD_SIZE_MAX: '64', ...env },
		queue: queue
			? {
					redisHost: queue.redis.host,
					redisPort: queue.redis.port,
					postgres: {
						host: queue.postgres.host,
						port: queue.postgres.port,
						user: queue.postgres.user,
						password: queue.postgres.password,
						database: queue.postgres.createDatabase(`n8n_bench_${Date.now()}`),
					},
					workers: 2,
					workerConcurrency: queue.workerConcurrency,
				}
			: undefined,
	});
	const api = new N8nApi(n8n.baseUrl, 2, n8n.webhookBaseUrl);
	try {
		await api.bootstrap();
	} catch (error) {
		await n8n.stop();
		throw error;
	}
	return { n8n, api, env, stop: () => n8n.stop() };
}
