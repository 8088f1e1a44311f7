/**
 * `npm run editor`: a real n8n editor on 127.0.0.1 with this package installed, a credential for the
 * local simulator already made and the example workflows imported. Ctrl-C stops n8n and the simulator.
 * The n8n user folder is kept between starts (editorFolder.ts says where); `npm run editor -- --clean`
 * starts from an empty one.
 */
import { OWNER } from './n8n/api';
import {
	editorFolder,
	parseEditorArgs,
	prepareEditorFolder,
	saveEditorState,
} from './n8n/editorFolder';
import { startReadyInstance } from './n8n/instance';
import { cacheRoot, VERSIONS } from './n8n/paths';

async function main(): Promise<void> {
	const { clean } = parseEditorArgs(process.argv.slice(2));
	const userFolder = editorFolder(cacheRoot(), VERSIONS[2]);
	const state = prepareEditorFolder(userFolder, clean);
	console.log(
		state
			? `n8n user folder (kept from the last start): ${userFolder}`
			: `n8n user folder (new; kept for the next start, --clean empties it): ${userFolder}`,
	);
	const instance = await startReadyInstance((line) => console.log(line), {
		keep: { userFolder, state },
	});
	saveEditorState(userFolder, instance.state);
	console.log('');
	console.log(`n8n editor:  ${instance.n8n.baseUrl}/home/workflows`);
	console.log(`login:       ${OWNER.email}  /  ${OWNER.password}`);
	console.log(`credential:  "Workspace Practice account" → ${instance.sim.baseUrl}`);
	console.log(`workflows:   ${Object.keys(instance.workflows).join(', ')}`);
	console.log('Ctrl-C stops n8n and the simulator; your workflows stay for the next start.');
	let stopping = false;
	const stop = (): void => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping…');
		void instance.stop().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
