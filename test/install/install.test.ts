/**
 * scripts/n8n/install.sh as a new user meets it (issue 20): started by `npm run`, which hands npm's
 * configuration to the script as npm_config_* variables (among them the project's ignore-scripts=true),
 * and against a registry that stalls. The full n8n install takes minutes and lives in the e2e tier (its
 * first step loads the installs' native modules); here the same build-and-check stage runs on a tiny
 * native addon (test/install/fixtures/native-probe), the stall bounds are shrunk through env vars, and
 * the repair of a broken cached install runs on a fake one whose reinstall meets a refusing registry.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { REPO_ROOT } from '../../scripts/n8n/paths';

const INSTALL_SH = join(REPO_ROOT, 'scripts', 'n8n', 'install.sh');
const PROBE = join(__dirname, 'fixtures', 'native-probe');

const temps: string[] = [];
function tempDir(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	temps.push(dir);
	return dir;
}
afterAll(() => {
	for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding the unbuilt addon in node_modules, as `npm ci --ignore-scripts` leaves sqlite3. */
function probeFolder(): string {
	const dir = tempDir('wsp-native-');
	writeFileSync(
		join(dir, 'package.json'),
		JSON.stringify({
			name: 'probe-holder',
			private: true,
			dependencies: { 'native-probe': '1.0.0' },
		}),
	);
	cpSync(PROBE, join(dir, 'node_modules', 'native-probe'), {
		recursive: true,
		filter: (src) => !src.includes('/build'),
	});
	return dir;
}

/** Loads the addon in a fresh Node and returns what its check() answers. */
function loadProbe(dir: string): string {
	const result = spawnSync(
		process.execPath,
		['-e', "process.stdout.write(String(require('native-probe').check()))"],
		{
			cwd: dir,
			encoding: 'utf8',
		},
	);
	return result.status === 0
		? result.stdout
		: `failed: ${result.stderr.split('\n').find((l) => l.includes('Error')) ?? result.stderr}`;
}

/** The environment `npm run` gives its scripts on this project: ignore-scripts=true among npm's settings. */
const npmRunEnv = {
	...process.env,
	npm_config_ignore_scripts: 'true',
	NPM_CONFIG_IGNORE_SCRIPTS: 'true',
};

describe('native modules under the environment of an npm script', () => {
	it('a plain `npm rebuild` there builds nothing and still exits 0 (the fault of issue 20)', () => {
		const dir = probeFolder();
		const result = spawnSync('npm', ['rebuild', 'native-probe'], {
			cwd: dir,
			env: npmRunEnv,
			encoding: 'utf8',
		});
		expect(result.status).toBe(0);
		expect(
			existsSync(
				join(dir, 'node_modules', 'native-probe', 'build', 'Release', 'native_probe.node'),
			),
		).toBe(false);
	}, 60_000);

	it('`npm run e2e:install -- --build-native` builds the addon and checks that it loads', () => {
		const dir = probeFolder();
		const result = spawnSync(
			'npm',
			['run', '--silent', 'e2e:install', '--', '--build-native', dir, 'native-probe'],
			{
				cwd: REPO_ROOT,
				env: npmRunEnv,
				encoding: 'utf8',
			},
		);
		expect(result.stderr).toContain('[verify-native] native-probe OK');
		expect(result.status).toBe(0);
		expect(result.stdout.trim().split('\n').pop()).toBe(dir);
		expect(
			existsSync(
				join(dir, 'node_modules', 'native-probe', 'build', 'Release', 'native_probe.node'),
			),
		).toBe(true);
		expect(loadProbe(dir)).toBe('42');
	}, 180_000);
});

/** A registry on 127.0.0.1 that accepts connections and never answers, as the stalled install saw. */
async function silentRegistry(): Promise<{
	url: string;
	connections: () => number;
	close: () => Promise<void>;
}> {
	const sockets = new Set<Socket>();
	let count = 0;
	const server: Server = createServer((socket) => {
		count++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('no port');
	return {
		url: `http://127.0.0.1:${address.port}/`,
		connections: () => count,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

interface Finished {
	status: number | null;
	stderr: string;
	/** Whether the install wrote its "finished" marker. */
	marked: boolean;
}

/** install.sh (2.x: its first stage fetches Node 24) into an empty cache against the given registry. */
function installAgainst(registry: string, bounds: Record<string, string>): Promise<Finished> {
	const cache = tempDir('wsp-n8n-cache-');
	return new Promise((resolve) => {
		const child = spawn('bash', [INSTALL_SH], {
			env: {
				...npmRunEnv,
				WSP_N8N_CACHE: cache,
				WSP_N8N_REGISTRY: registry,
				// An empty npm cache, so the tarball has to come from the (silent) registry.
				WSP_N8N_NPM_CACHE: join(cache, 'npm-cache'),
				...bounds,
			},
			stdio: ['ignore', 'ignore', 'pipe'],
		});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('close', (status) => {
			const marked = existsSync(join(cache, 'node-24.21.0', '.installed'));
			resolve({ status, stderr, marked });
		});
	});
}

describe('a registry that accepts and never answers', () => {
	it('the watchdog stops npm, retries, then exits non-zero with a clear error', async () => {
		const registry = await silentRegistry();
		try {
			// npm's own fetch timeout is left long, so only the watchdog can end the wait.
			const run = await installAgainst(registry.url, {
				WSP_N8N_STALL_SECONDS: '3',
				WSP_N8N_POLL_SECONDS: '1',
				WSP_N8N_ATTEMPTS: '2',
				WSP_N8N_FETCH_TIMEOUT_MS: '600000',
			});
			expect(registry.connections()).toBeGreaterThan(0);
			expect(run.stderr).toMatch(/no progress for \d+ s/);
			expect(run.stderr).toContain('attempt 2 of 2');
			expect(run.stderr).toContain('ERROR: Node 24.21.0 could not be installed');
			expect(run.status).toBe(1);
			expect(run.marked).toBe(false);
		} finally {
			await registry.close();
		}
	}, 60_000);

	it("npm's fetch timeout ends the wait on its own, with the same clear error", async () => {
		const registry = await silentRegistry();
		try {
			const run = await installAgainst(registry.url, {
				WSP_N8N_STALL_SECONDS: '600',
				WSP_N8N_ATTEMPTS: '1',
				WSP_N8N_FETCH_TIMEOUT_MS: '2000',
				WSP_N8N_FETCH_RETRIES: '0',
			});
			expect(run.stderr).toContain('ERROR: Node 24.21.0 could not be installed');
			expect(run.status).toBe(1);
		} finally {
			await registry.close();
		}
	}, 60_000);
});

describe('a cached install marked finished that fails its check', () => {
	it('is repaired, and when that fails reinstalled; nothing is marked finished until it works', () => {
		const cache = tempDir('wsp-n8n-cache-');
		const dir = join(cache, 'n8n-1.123.81');
		// Marked by the current recipe, but sqlite3 is missing: what issue 20's cache held, only worse.
		mkdirSync(join(dir, 'node_modules', 'n8n'), { recursive: true });
		writeFileSync(join(dir, '.installed'), 'recipe-2\n');
		writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'n8n-holder', private: true }));
		writeFileSync(
			join(dir, 'node_modules', 'n8n', 'package.json'),
			JSON.stringify({ name: 'n8n', version: '1.123.81' }),
		);
		const result = spawnSync('bash', [INSTALL_SH, '--v1'], {
			env: {
				...npmRunEnv,
				WSP_N8N_CACHE: cache,
				// Port 9 refuses connections: the reinstall fails at once instead of downloading 1.8 GB.
				WSP_N8N_REGISTRY: 'http://127.0.0.1:9/',
				WSP_N8N_NPM_CACHE: join(cache, 'npm-cache'),
				WSP_N8N_ATTEMPTS: '1',
				WSP_N8N_FETCH_RETRIES: '0',
			},
			encoding: 'utf8',
		});
		expect(result.stderr).toContain('[verify-native] sqlite3 FAILED');
		expect(result.stderr).toContain('fails its check; repairing (rebuilding sqlite3)');
		expect(result.stderr).toContain('repair failed; reinstalling from scratch');
		expect(result.stderr).toContain('ERROR: n8n 1.123.81 could not be installed');
		expect(result.status).toBe(1);
		expect(existsSync(join(dir, '.installed'))).toBe(false);
	}, 120_000);
});
