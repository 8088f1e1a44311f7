/** Issue item 1: `npm run simulator -- --port <n>` prints the base URL and the key; signals stop it. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { DEFAULT_API_KEY } from '../../simulator';

const root = join(__dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

function start(
	args: string[],
	env: Record<string, string> = {},
): Promise<{ child: ChildProcessWithoutNullStreams; lines: string[] }> {
	const child = spawn(tsx, [join(root, 'simulator', 'cli.ts'), ...args], {
		cwd: root,
		env: { ...process.env, ...env },
	});
	return new Promise((resolve, reject) => {
		let out = '';
		const timer = setTimeout(() => reject(new Error(`no output: ${out}`)), 15_000);
		child.stdout.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const lines = out.split('\n').filter(Boolean);
			if (lines.length >= 2) {
				clearTimeout(timer);
				resolve({ child, lines });
			}
		});
		child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
	});
}

const exited = (child: ChildProcessWithoutNullStreams) =>
	new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

describe('simulator CLI', () => {
	it('prints exactly the listening line, then the key; serves it; stops on SIGTERM', async () => {
		const { child, lines } = await start(['--port', '0']);
		try {
			expect(lines[0]).toMatch(/^Simulator listening on http:\/\/127\.0\.0\.1:\d+\/rest\/v1$/);
			expect(lines[1]).toBe(`API key: ${DEFAULT_API_KEY}`);
			const base = lines[0].replace('Simulator listening on ', '');
			const res = await fetch(`${base}/workspace`, {
				headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` },
			});
			expect(res.status).toBe(200);
		} finally {
			const done = exited(child);
			child.kill('SIGTERM');
			expect(await done).toBe(0);
		}
	});

	it('SIMULATOR_API_KEY sets the accepted key; --port binds that port; SIGINT stops it', async () => {
		const key = `svc_live_${'Z9'.repeat(20)}`;
		const probe = await import('node:net').then(
			(net) =>
				new Promise<number>((resolve) => {
					const srv = net.createServer().listen(0, '127.0.0.1', () => {
						const address = srv.address();
						const port = typeof address === 'object' && address ? address.port : 0;
						srv.close(() => resolve(port));
					});
				}),
		);
		const { child, lines } = await start(['--port', String(probe)], { SIMULATOR_API_KEY: key });
		try {
			expect(lines[0]).toBe(`Simulator listening on http://127.0.0.1:${probe}/rest/v1`);
			expect(lines[1]).toBe(`API key: ${key}`);
			const ok = await fetch(`http://127.0.0.1:${probe}/rest/v1/workspace`, {
				headers: { Authorization: `Bearer ${key}` },
			});
			expect(ok.status).toBe(200);
			const wrong = await fetch(`http://127.0.0.1:${probe}/rest/v1/workspace`, {
				headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` },
			});
			expect(wrong.status).toBe(401);
		} finally {
			const done = exited(child);
			child.kill('SIGINT');
			expect(await done).toBe(0);
		}
	});
});
