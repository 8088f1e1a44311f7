/**
 * n8n's strict mode, proven on the package as n8n sees it. This repository cannot hold the template
 * eslint.config.mjs itself (it would lint the simulator and tests with the node rules; CONTRIBUTING.md,
 * "Repository layout and n8n's strict mode"), so a temporary folder gets what ships (nodes/,
 * credentials/), package.json with "strict": true, n8n-node's template eslint.config.mjs unchanged, the
 * build's compiler settings as tsconfig.json, and node_modules linked; `n8n-node cloud-support` must
 * call it eligible and `n8n-node lint` must pass there. Two controls show either check can fail.
 */
import { execFile } from 'node:child_process';
import {
	appendFileSync,
	cpSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const TEMPLATE_ESLINT = join(
	ROOT,
	'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs',
);
// jest sets NODE_ENV=test, which puts eslint-plugin-n8n-nodes-base's package.json rules into their own
// unit-test mode (they then skip real package.json files): run as a user's shell would.
const { NODE_ENV: _jestEnv, ...SHELL_ENV } = process.env;

interface Run {
	code: number;
	output: string;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The package as n8n sees it, in strict mode, in a new temporary folder. */
function stage(): string {
	const dir = mkdtempSync(join(tmpdir(), 'wsp-strict-'));
	dirs.push(dir);
	cpSync(join(ROOT, 'nodes'), join(dir, 'nodes'), { recursive: true });
	cpSync(join(ROOT, 'credentials'), join(dir, 'credentials'), { recursive: true });
	cpSync(TEMPLATE_ESLINT, join(dir, 'eslint.config.mjs'));
	symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');

	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		n8n: Record<string, unknown>;
	};
	const { '//': _reason, ...n8n } = pkg.n8n;
	writeFileSync(
		join(dir, 'package.json'),
		JSON.stringify({ ...pkg, n8n: { ...n8n, strict: true } }, null, '\t'),
	);

	// tsconfig.build.json extends tsconfig.json (which also covers the simulator and tests): merge the
	// two into the one file the import resolver of n8n-node's config reads.
	const base = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as {
		compilerOptions: object;
	};
	const build = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
		compilerOptions: object;
		include: string[];
	};
	writeFileSync(
		join(dir, 'tsconfig.json'),
		JSON.stringify(
			{
				compilerOptions: { ...base.compilerOptions, ...build.compilerOptions },
				include: build.include,
			},
			null,
			'\t',
		),
	);
	return dir;
}

/** CI (CI=true) makes n8n-node colour its words even into a file; the checks read the text. */
const withoutColours = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

/** `npx n8n-node <args>` in a folder; output to a file (n8n-node exits before a pipe is drained). */
function n8nNode(dir: string, args: string): Promise<Run> {
	return new Promise((done) => {
		execFile(
			'bash',
			['-c', `npx --no-install n8n-node ${args} >n8n-node.log 2>&1`],
			{ cwd: dir, env: SHELL_ENV },
			(error) => {
				done({
					code: error ? ((error as { code?: number }).code ?? 1) : 0,
					output: withoutColours(readFileSync(join(dir, 'n8n-node.log'), 'utf8')),
				});
			},
		);
	});
}

describe('the package staged as n8n sees it, in strict mode', () => {
	let status: Run;
	let lint: Run;
	beforeAll(async () => {
		const dir = stage();
		status = await n8nNode(dir, 'cloud-support');
		lint = await n8nNode(dir, 'lint');
	}, 180_000);

	it('is eligible for n8n Cloud verification (n8n-node cloud-support)', () => {
		expect(status.output).toContain('Strict mode: enabled');
		expect(status.output).toContain('ESLint config: using default config');
		expect(status.output).toMatch(/Status: eligible for n8n Cloud verification/);
	});

	it('passes n8n-node lint with the template config', () => {
		expect(lint.output).not.toMatch(/Strict mode violation|error/i);
		expect(lint.code).toBe(0);
	});
});

describe('the strict-mode checks can fail', () => {
	let changedConfig: Run;
	let forbiddenGlobal: Run;
	beforeAll(async () => {
		const configDir = stage();
		appendFileSync(join(configDir, 'eslint.config.mjs'), '// changed\nexport const extra = 1;\n');
		changedConfig = await n8nNode(configDir, 'cloud-support');

		const globalDir = stage();
		appendFileSync(
			join(globalDir, 'nodes/shared/values.ts'),
			'\nexport const later = (run: () => void) => setTimeout(run, 1);\n',
		);
		forbiddenGlobal = await n8nNode(globalDir, 'lint');
	}, 180_000);

	it('calls a changed eslint.config.mjs not eligible', () => {
		expect(changedConfig.output).toContain('NOT eligible');
	});

	it('fails lint on a node that uses setTimeout', () => {
		expect(forbiddenGlobal.output).toContain('@n8n/community-nodes/no-restricted-globals');
		expect(forbiddenGlobal.code).not.toBe(0);
	});
});
