/** `npm run simulator -- --port <n>`: serve the simulator until SIGINT/SIGTERM. */
import { DEFAULT_API_KEY, startSimulator } from './index';

function parsePort(argv: string[]): number {
	const i = argv.findIndex((a) => a === '--port' || a.startsWith('--port='));
	if (i < 0) return 0;
	const raw = argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
	const port = Number(raw);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		console.error(`Invalid --port value: ${raw}`);
		process.exit(2);
	}
	return port;
}

async function main(): Promise<void> {
	const sim = await startSimulator({
		port: parsePort(process.argv.slice(2)),
		apiKey: process.env.SIMULATOR_API_KEY || DEFAULT_API_KEY,
		rateLimits: process.argv.includes('--rate-limits'),
	});
	console.log(`Simulator listening on ${sim.baseUrl}`);
	console.log(`API key: ${sim.apiKey}`);
	const stop = (): void => {
		void sim.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
	console.error(err instanceof Error ? err.message : err);
	process.exit(1);
});
