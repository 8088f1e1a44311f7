/**
 * `npm run bench` (after `npm run build`). Compiles the bench and what it drives (nodes, engine harness,
 * simulator) with tsc into bench/.tmp/build, then runs it with plain node: the figures come from the
 * same compiled JavaScript n8n would load, and module resolution is node's own (`./X.node` finds
 * X.node.js, not the codex file X.node.json next to the sources).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..');
const tsc = spawnSync(
	process.execPath,
	[require.resolve('typescript/bin/tsc'), '-p', join(root, 'bench', 'tsconfig.json')],
	{
		cwd: root,
		encoding: 'utf8',
	},
);
if (tsc.status !== 0) {
	// Emitted anyway (noEmitOnError is off): type errors are the type check's business, not the bench's.
	const errors = (tsc.stdout.match(/error TS\d+/g) ?? []).length;
	console.warn(
		`Note: tsc reported ${errors} type error(s) while compiling the bench; running the emitted code.`,
	);
	console.warn(tsc.stdout.split('\n').slice(0, 10).join('\n'));
}

const env = { ...process.env };
// n8n-core writes <N8N_USER_FOLDER>/.n8n/config when it loads: keep that out of the user's home, in a
// temp folder removed at the end.
const userFolder = env.N8N_USER_FOLDER ? undefined : mkdtempSync(join(tmpdir(), 'wp-bench-n8n-'));
if (userFolder) env.N8N_USER_FOLDER = userFolder;
env.N8N_LOG_LEVEL ??= 'silent';
const bench = spawnSync(
	process.execPath,
	[join(root, 'bench', '.tmp', 'build', 'bench', 'main.js'), ...process.argv.slice(2)],
	{
		cwd: root,
		env,
		stdio: 'inherit',
	},
);
if (userFolder) rmSync(userFolder, { recursive: true, force: true });
process.exitCode = bench.status ?? 1;
