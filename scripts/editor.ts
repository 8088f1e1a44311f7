/**
 * `npm run editor`: a real n8n editor on 127.0.0.1 with this package installed, a credential for the
 * local simulator already made and the example workflows imported. Ctrl-C stops n8n and the simulator.
 */
import { OWNER } from './n8n/api';
import { startReadyInstance } from './n8n/instance';

async function main(): Promise<void> {
	const instance = await startReadyInstance((line) => console.log(line));
	console.log('');
	console.log(`n8n editor:  ${instance.n8n.baseUrl}/home/workflows`);
	console.log(`login:       ${OWNER.email}  /  ${OWNER.password}`);
	console.log(`credential:  "Workspace Practice account" → ${instance.sim.baseUrl}`);
	console.log(`workflows:   ${Object.keys(instance.workflows).join(', ')}`);
	console.log('Ctrl-C stops n8n and the simulator.');
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
