/**
 * The simulator in a process of its own, as the real service is on another machine: its work (routing,
 * rendering 10,000 rows, checking its own answers against the schemas) does not run on the thread
 * that n8n's engine and the node use. Argument: JSON of SimProcessOptions. Prints one JSON line with
 * the base URL and key, then serves until its parent closes stdin.
 */
import { startSimulator, type DataSize, type JobTimings } from '../simulator/index';
import { ScaledClock } from './scaledTime';

export interface SimProcessOptions {
	dataSize?: DataSize;
	latencyMs?: number;
	/** The clock runs this many times faster than real time (1 = real time). */
	timeScale?: number;
	jobTimings?: JobTimings;
}

async function serve(): Promise<void> {
	const options = JSON.parse(process.argv[2] ?? '{}') as SimProcessOptions;
	const scale = options.timeScale ?? 1;
	const sim = await startSimulator({
		dataSize: options.dataSize,
		latencyMs: options.latencyMs ?? 0,
		jobTimings: options.jobTimings,
		...(scale !== 1 ? { clock: new ScaledClock(scale) } : {}),
	});
	process.stdout.write(`${JSON.stringify({ baseUrl: sim.baseUrl, apiKey: sim.apiKey })}\n`);
	const stop = (): void => {
		void sim.close().finally(() => process.exit(0));
	};
	process.stdin.on('end', stop);
	process.stdin.on('close', stop);
	process.stdin.resume();
	process.once('SIGTERM', stop);
}

serve().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});
