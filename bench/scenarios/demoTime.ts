/**
 * Issue 57: how long `npm run demo` takes and its longest silence, as a newcomer meets it. The demo
 * runs in a child process (`npm run demo`), each line of its output stamped as it arrives; the wall
 * time runs from the spawn to the exit, and the longest silence is the longest gap between the spawn,
 * the lines and the exit (the line it follows is kept, to say where). Standalone:
 * `npx tsx bench/scenarios/demoTime.ts` prints the figures as JSON.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export interface DemoTimeFigures {
	/** From the spawn of `npm run demo` to its exit. */
	wallMs: number;
	longestSilenceMs: number;
	/** The last line with words before the longest silence ("(start)" before the first). */
	longestSilenceAfter: string;
	/** The three longest silences, longest first, each with the line it follows. */
	longestSilences: Array<{ ms: number; after: string }>;
	lines: number;
	exitCode: number | null;
}

export async function benchDemoTime(root = join(__dirname, '..', '..')): Promise<DemoTimeFigures> {
	const start = performance.now();
	const child = spawn('npm', ['run', '--silent', 'demo'], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let last = { at: start, line: '(start)' };
	const silences: Array<{ ms: number; after: string }> = [];
	let lines = 0;
	let partial = '';
	const mark = (line: string): void => {
		const at = performance.now();
		silences.push({ ms: Math.round(at - last.at), after: last.line });
		// An empty line says nothing: the silence is placed after the last line with words.
		last = { at, line: line.trim() || last.line };
	};
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (chunk: string) => {
		const parts = (partial + chunk).split('\n');
		partial = parts.pop() ?? '';
		for (const line of parts) {
			lines++;
			mark(line);
		}
	});
	child.stderr.resume();
	const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
	mark('(exit)');
	const longest = silences.sort((a, b) => b.ms - a.ms).slice(0, 3);
	return {
		wallMs: Math.round(performance.now() - start),
		longestSilenceMs: longest[0].ms,
		longestSilenceAfter: longest[0].after,
		longestSilences: longest,
		lines,
		exitCode,
	};
}

if (require.main === module)
	void benchDemoTime().then((figures) => console.log(JSON.stringify(figures, null, 2)));
