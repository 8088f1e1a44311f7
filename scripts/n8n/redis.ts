/**
 * A private Redis for n8n's queue mode: Debian's redis-server (installed with apt-get when missing),
 * started on a free loopback port with no persistence, stopped by PID afterwards.
 */
import { execFileSync, spawn } from 'node:child_process';
import { connect } from 'node:net';

import { freePort } from './server';

export interface RedisHandle {
	host: string;
	port: number;
	/** True when this process started it (and stop() ends it). */
	started: boolean;
	stop(): Promise<void>;
}

function which(binary: string): string | undefined {
	try {
		return (
			execFileSync('bash', ['-c', `command -v ${binary}`], { encoding: 'utf8' }).trim() || undefined
		);
	} catch {
		return undefined;
	}
}

function installRedis(): string {
	const existing = which('redis-server');
	if (existing) return existing;
	const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
	const run = (cmd: string[]): void => {
		const [bin, ...rest] = [...asRoot, ...cmd];
		execFileSync(bin, rest, {
			stdio: ['ignore', 'ignore', 'inherit'],
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
	};
	run(['apt-get', 'update']);
	run(['apt-get', 'install', '-y', '--no-install-recommends', 'redis-server']);
	const installed = which('redis-server');
	if (!installed) throw new Error('apt-get installed redis-server but it is not on PATH');
	return installed;
}

async function ping(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1');
		let answer = '';
		socket.setTimeout(1000, () => {
			socket.destroy();
			resolve(false);
		});
		socket.on('error', () => resolve(false));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			answer += chunk.toString();
			if (answer.includes('\r\n')) {
				socket.end();
				resolve(answer.startsWith('+PONG'));
			}
		});
	});
}

export async function ensureRedis(): Promise<RedisHandle> {
	const binary = installRedis();
	const port = await freePort();
	const child = spawn(
		binary,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{
			stdio: 'ignore',
		},
	);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const deadline = Date.now() + 15000;
	while (!(await ping(port))) {
		if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
		if (Date.now() > deadline) {
			child.kill('SIGTERM');
			throw new Error('redis-server did not answer PING within 15 s');
		}
		await new Promise((r) => setTimeout(r, 200));
	}
	return {
		host: '127.0.0.1',
		port,
		started: true,
		stop: async () => {
			if (child.exitCode === null) {
				child.kill('SIGTERM');
				await exited;
			}
		},
	};
}
