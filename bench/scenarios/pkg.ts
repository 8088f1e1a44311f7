/**
 * Item 5: what installing and loading the package costs. Packed size from `npm pack --dry-run --json`,
 * runtime dependencies from package.json, and the time to `require` each built module in a fresh node
 * process with n8n-workflow already loaded (as it is inside n8n), median of several processes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { config } from '../config';
import { median, round } from '../stats';

export interface ModuleLoad {
	module: string;
	/** The module alone, n8n-workflow already in memory. */
	loadMs: number;
	/** From a cold process: n8n-workflow included, for reference. */
	coldLoadMs: number;
	/** Files of the package the module loads (itself included). */
	filesLoaded: number;
}

export interface PackageFigures {
	packedKb: number;
	unpackedKb: number;
	files: number;
	runtimeDependencies: number;
	peerDependencies: string[];
	modules: ModuleLoad[];
	maxLoadMs: number;
}

interface PackageJson {
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

/** Prints the milliseconds `require(file)` takes, optionally after loading n8n-workflow. */
const LOAD_SCRIPT = `
const { performance } = require('node:perf_hooks');
if (process.argv[2] === 'warm') require('n8n-workflow');
const before = new Set(Object.keys(require.cache));
const start = performance.now();
require(process.argv[1]);
const ms = performance.now() - start;
const files = Object.keys(require.cache).filter((f) => !before.has(f) && !f.includes('node_modules')).length;
console.log(JSON.stringify({ ms, files }));
`;

function loadTime(
	root: string,
	file: string,
	mode: 'warm' | 'cold',
): { ms: number; files: number } {
	const out = spawnSync(process.execPath, ['-e', LOAD_SCRIPT, join(root, file), mode], {
		cwd: root,
		encoding: 'utf8',
	});
	if (out.status !== 0)
		throw new Error(`Loading ${file} failed: ${out.stderr.trim().split('\n')[0]}`);
	return JSON.parse(out.stdout.trim()) as { ms: number; files: number };
}

export function benchPackage(root: string): PackageFigures {
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
	const pack = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' });
	if (pack.status !== 0)
		throw new Error(`npm pack failed: ${pack.stderr.trim().split('\n').slice(-3).join(' ')}`);
	const [packed] = JSON.parse(pack.stdout) as Array<{
		size: number;
		unpackedSize: number;
		entryCount: number;
	}>;

	const files = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const modules = files.map((file) => {
		const warm: number[] = [];
		const cold: number[] = [];
		let filesLoaded = 0;
		for (let run = 0; run < config.loadRuns; run++) {
			const load = loadTime(root, file, 'warm');
			warm.push(load.ms);
			filesLoaded = load.files;
			cold.push(loadTime(root, file, 'cold').ms);
		}
		return {
			module: file,
			loadMs: round(median(warm), 1),
			coldLoadMs: round(median(cold), 1),
			filesLoaded,
		};
	});
	return {
		packedKb: round(packed.size / 1024, 1),
		unpackedKb: round(packed.unpackedSize / 1024, 1),
		files: packed.entryCount,
		runtimeDependencies: Object.keys(pkg.dependencies ?? {}).length,
		peerDependencies: Object.keys(pkg.peerDependencies ?? {}),
		modules,
		maxLoadMs: Math.max(...modules.map((m) => m.loadMs)),
	};
}
