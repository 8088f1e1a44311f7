/**
 * A private PostgreSQL for n8n's queue mode (n8n supports only PostgreSQL there): Debian's `postgresql`
 * package (installed with apt-get when missing), a fresh cluster in a temp folder, started on a free
 * loopback port and stopped by PID afterwards. PostgreSQL refuses to run as root, so when this process
 * is root the cluster belongs to, and the server runs as, the unprivileged `postgres` user the package
 * creates. Each n8n run gets a database of its own (createDatabase).
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from './server';

export interface PostgresHandle {
	host: string;
	port: number;
	user: string;
	password: string;
	/** Creates an empty database (name: letters, digits, underscores) and returns its name. */
	createDatabase(name: string): string;
	stop(): Promise<void>;
}

const USER = 'n8n';
/** Loopback only and a throwaway cluster: the password is there because n8n's settings want one. */
const PASSWORD = 'n8n-e2e-not-a-secret';

/** Debian installs each major under /usr/lib/postgresql/<major>/bin; the newest wins. */
function binDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const majors = readdirSync(root)
		.filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? join(root, majors[0], 'bin') : undefined;
}

/** Idempotent: returns at once when a server binary is there. */
export function installPostgres(): string {
	const existing = binDir();
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
	run(['apt-get', 'install', '-y', '--no-install-recommends', 'postgresql']);
	const installed = binDir();
	if (!installed)
		throw new Error(
			'apt-get installed postgresql but no /usr/lib/postgresql/<major>/bin/postgres is there',
		);
	return installed;
}

/** uid/gid to run the server as: ourselves, or the package's `postgres` user when we are root. */
function serverIdentity(): { uid?: number; gid?: number } {
	if (process.getuid?.() !== 0) return {};
	const id = (flag: string): number =>
		Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
	try {
		return { uid: id('-u'), gid: id('-g') };
	} catch {
		throw new Error(
			'running as root and there is no `postgres` user (the postgresql package creates it)',
		);
	}
}

export async function ensurePostgres(): Promise<PostgresHandle> {
	const bin = installPostgres();
	const who = serverIdentity();
	const dataDir = mkdtempSync(join(tmpdir(), 'wsp-postgres-'));
	if (who.uid !== undefined && who.gid !== undefined) chownSync(dataDir, who.uid, who.gid);
	const asServer = { ...who, cwd: dataDir, env: { ...process.env, LC_ALL: 'C.UTF-8' } };
	// trust on loopback: the cluster lives as long as this run and listens on 127.0.0.1 only.
	execFileSync(
		join(bin, 'initdb'),
		['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions'],
		{
			...asServer,
			stdio: ['ignore', 'ignore', 'inherit'],
		},
	);
	const port = await freePort();
	const child = spawn(
		join(bin, 'postgres'),
		[
			'-D',
			dataDir,
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			'-k',
			dataDir,
			'-c',
			'fsync=off',
			'-c',
			'max_connections=200',
		],
		{ ...asServer, stdio: ['ignore', 'ignore', 'pipe'] },
	);
	let stderr = '';
	child.stderr?.on('data', (chunk: Buffer) => {
		stderr = (stderr + chunk.toString()).slice(-4000);
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const psql = (sql: string, database = 'postgres'): void => {
		execFileSync(
			join(bin, 'psql'),
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				'postgres',
				'-d',
				database,
				'-v',
				'ON_ERROR_STOP=1',
				'-qc',
				sql,
			],
			{
				stdio: ['ignore', 'ignore', 'pipe'],
			},
		);
	};
	const deadline = Date.now() + 30000;
	for (;;) {
		if (child.exitCode !== null)
			throw new Error(`postgres exited with code ${child.exitCode}: ${stderr.trim()}`);
		try {
			execFileSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']);
			break;
		} catch {
			if (Date.now() > deadline) {
				child.kill('SIGINT');
				throw new Error(`postgres did not accept connections within 30 s: ${stderr.trim()}`);
			}
			await new Promise((r) => setTimeout(r, 200));
		}
	}
	psql(`CREATE ROLE ${USER} LOGIN PASSWORD '${PASSWORD}' CREATEDB`);
	return {
		host: '127.0.0.1',
		port,
		user: USER,
		password: PASSWORD,
		createDatabase: (name) => {
			if (!/^[a-z_][a-z0-9_]*$/.test(name))
				throw new Error(`database name ${name}: lower-case letters, digits and _ only`);
			psql(`CREATE DATABASE ${name} OWNER ${USER}`);
			return name;
		},
		stop: async () => {
			// SIGINT is PostgreSQL's "fast" shutdown: clients are disconnected, the cluster closes cleanly.
			if (child.exitCode === null && child.signalCode === null) {
				child.kill('SIGINT');
				await exited;
			}
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}
