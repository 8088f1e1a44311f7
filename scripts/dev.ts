/**
 * `npm run dev`: the development loop. Builds once, then keeps `tsc --watch` compiling nodes and
 * credentials into dist/, and runs the pinned n8n 2.x on 127.0.0.1 with this repository linked as a
 * package (the way `n8n-node dev` links it: a symlink in <user folder>/.n8n/custom/node_modules) and
 * N8N_DEV_RELOAD on, so n8n reloads the nodes after every rebuild. The simulator runs alongside, with a
 * credential for it already made. Ctrl-C stops everything; the n8n folder is temporary.
 *
 * `n8n-node dev` itself runs `npx n8n@latest` (a download of the newest n8n on every start), which
 * cannot work offline and is not the n8n version this package is tested with.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator } from '../simulator';
import { N8nApi, OWNER } from './n8n/api';
import { ensureInstalled, REPO_ROOT } from './n8n/paths';
import { N8nServer } from './n8n/server';

const PACKAGE_NAME = 'n8n-nodes-workspace-practice';

async function main(): Promise<void> {
	console.log('dev: building once (dist/ with icons and codex files)…');
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
	const tsc = spawn(
		process.execPath,
		[
			join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
			'-p',
			'tsconfig.build.json',
			'--watch',
			'--preserveWatchOutput',
		],
		{ cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
	);

	const install = ensureInstalled(2);
	const userFolder = mkdtempSync(join(tmpdir(), 'wsp-dev-'));
	const linkedModules = join(userFolder, '.n8n', 'custom', 'node_modules');
	mkdirSync(linkedModules, { recursive: true });
	symlinkSync(REPO_ROOT, join(linkedModules, PACKAGE_NAME), 'dir');

	const sim = await startSimulator({});
	console.log(`dev: simulator on ${sim.baseUrl}; starting n8n ${install.version}…`);
	const n8n = await N8nServer.start({ install, userFolder, env: { N8N_DEV_RELOAD: 'true' } }).catch(
		async (error: unknown) => {
			tsc.kill('SIGTERM');
			await sim.close();
			throw error;
		},
	);
	const api = new N8nApi(n8n.baseUrl);
	await api.bootstrap();
	await api.createCredential('Workspace Practice (simulator)', 'workspacePracticeApi', {
		baseUrl: sim.baseUrl,
		apiKey: sim.apiKey,
	});

	console.log('');
	console.log(
		`n8n editor:  ${n8n.baseUrl}/home/workflows   (login ${OWNER.email} / ${OWNER.password})`,
	);
	console.log(`credential:  "Workspace Practice (simulator)" → ${sim.baseUrl}`);
	console.log(`n8n log:     ${join(n8n.userFolder, 'n8n.log')}`);
	console.log(
		'Edit nodes/ or credentials/: tsc rebuilds dist/ and n8n reloads the nodes; refresh the editor.',
	);
	console.log('Ctrl-C stops n8n, the simulator and tsc.');

	let stopping = false;
	const stop = (): void => {
		if (stopping) return;
		stopping = true;
		console.log('\ndev: stopping…');
		tsc.kill('SIGTERM');
		void Promise.all([n8n.stop(), sim.close()]).then(() => {
			rmSync(userFolder, { recursive: true, force: true });
			process.exit(0);
		});
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
