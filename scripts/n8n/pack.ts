/**
 * Builds the package into a staging folder and packs it with `npm pack`, then installs that tarball
 * into an n8n user folder the way n8n's community-package installer does.
 *
 * The staging build (not the repository's dist/) keeps these scripts from racing anyone else's
 * `npm run build` in the same working tree, and the tarball holds exactly what npm would publish.
 */
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { REPO_ROOT } from './paths';

const STAGE_ROOT = join(REPO_ROOT, '.e2e');

function copyAssets(from: string, to: string): void {
	for (const entry of readdirSync(from)) {
		const source = join(from, entry);
		if (statSync(source).isDirectory()) copyAssets(source, join(to, entry));
		else if (/\.(svg|png|json)$/.test(entry)) {
			mkdirSync(to, { recursive: true });
			cpSync(source, join(to, entry));
		}
	}
}

/** Compiles nodes + credentials, adds icons and codex files, and packs. Returns the .tgz path. */
export function packPackage(): string {
	const stage = join(STAGE_ROOT, 'package');
	rmSync(stage, { recursive: true, force: true });
	mkdirSync(stage, { recursive: true });
	execFileSync(
		process.execPath,
		[
			join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
			'-p',
			join(REPO_ROOT, 'tsconfig.build.json'),
			'--outDir',
			join(stage, 'dist'),
		],
		{ cwd: REPO_ROOT, stdio: 'inherit' },
	);
	// Type-only imports of the simulator's schemas still emit that module; the package must not ship it.
	rmSync(join(stage, 'dist', 'simulator'), { recursive: true, force: true });
	for (const folder of ['nodes', 'credentials'])
		copyAssets(join(REPO_ROOT, folder), join(stage, 'dist', folder));
	for (const file of ['package.json', 'README.md', 'LICENSE', 'LICENSE.md']) {
		if (existsSync(join(REPO_ROOT, file))) cpSync(join(REPO_ROOT, file), join(stage, file));
	}
	const out = execFileSync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', STAGE_ROOT],
		{
			cwd: stage,
			encoding: 'utf8',
		},
	);
	const [info] = JSON.parse(out) as Array<{ filename: string }>;
	const tarball = join(STAGE_ROOT, info.filename);
	if (!existsSync(tarball))
		throw new Error(`npm pack did not produce ${relative(REPO_ROOT, tarball)}`);
	return tarball;
}

/** Installs the tarball under `<userFolder>/.n8n/nodes`, where n8n loads community packages from. */
export function installIntoUserFolder(tarball: string, userFolder: string): void {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	if (!existsSync(join(nodesDir, 'package.json'))) {
		writeFileSync(
			join(nodesDir, 'package.json'),
			JSON.stringify({ name: 'installed-nodes', private: true }, null, 2),
		);
	}
	// n8n provides n8n-workflow itself: --legacy-peer-deps keeps npm from installing a second copy.
	execFileSync(
		'npm',
		[
			'install',
			tarball,
			'--prefix',
			nodesDir,
			'--legacy-peer-deps',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
		],
		{ cwd: dirname(tarball), stdio: ['ignore', 'ignore', 'inherit'] },
	);
}
