/**
 * `npm run lint` (n8n-node lint with this repository's eslint.config.mjs) checks what ships exactly as
 * n8n-node's own config does, package.json included, and fails a package.json n8n would refuse.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
// jest sets NODE_ENV=test, which switches eslint-plugin-n8n-nodes-base's package.json rules into their
// own unit-test mode (they then skip real package.json files): lint as a user's shell would.
const { NODE_ENV: _jestEnv, ...SHELL_ENV } = process.env;

interface Comparison {
	files: string[];
	differences: Array<{ file: string; what: string }>;
	packageJsonParser: string;
	packageJsonRules: string[];
	noConsoleOnNodes: unknown;
}

describe('lint configuration', () => {
	let comparison: Comparison;
	beforeAll(() => {
		const out = execFileSync(process.execPath, [join(__dirname, 'compareLintConfigs.mjs'), ROOT], {
			encoding: 'utf8',
			env: SHELL_ENV,
		});
		comparison = JSON.parse(out) as Comparison;
	});

	it('gives every shipped file and package.json the rules and parser of n8n-node’s own config', () => {
		expect(comparison.files).toContain('package.json');
		expect(comparison.files.filter((f) => f.startsWith('nodes/')).length).toBeGreaterThan(10);
		expect(comparison.files.filter((f) => f.startsWith('credentials/')).length).toBeGreaterThan(0);
		expect(comparison.differences).toEqual([]);
	});

	it('parses package.json with typescript-eslint’s parser and runs the package rules on it', () => {
		expect(comparison.packageJsonParser).toMatch(/^typescript-eslint\/parser@/);
		for (const rule of [
			'@n8n/community-nodes/no-runtime-dependencies',
			'@n8n/community-nodes/package-name-convention',
			'@n8n/community-nodes/no-forbidden-lifecycle-scripts',
			'@n8n/community-nodes/valid-author',
			'n8n-nodes-base/community-package-json-keywords-without-official-tag',
		]) {
			expect(comparison.packageJsonRules).toContain(rule);
		}
	});

	it('forbids console in node code, as n8n’s scanner does', () => {
		expect((comparison.noConsoleOnNodes as unknown[])[0]).toBe(2); // 2: error
	});
});

describe('npm run lint on a copy with a package.json n8n would refuse', () => {
	const original = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<
		string,
		unknown
	> & {
		scripts: Record<string, string>;
		keywords: string[];
	};
	const dirs: string[] = [];
	afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

	/** `npm run lint` in a folder holding this eslint.config.mjs and the given package.json. */
	function lintCopy(pkg: unknown): Promise<{ code: number; output: string }> {
		const dir = mkdtempSync(join(tmpdir(), 'wsp-lint-'));
		dirs.push(dir);
		cpSync(join(ROOT, 'eslint.config.mjs'), join(dir, 'eslint.config.mjs'));
		symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
		writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
		// Output to a file: n8n-node lint exits right after writing ESLint's report, and writes to a pipe
		// still pending at exit are lost; writes to a file are synchronous.
		const log = join(dir, 'lint.log');
		return new Promise((done) => {
			execFile(
				'bash',
				['-c', 'npm run lint --silent >lint.log 2>&1'],
				{ cwd: dir, env: SHELL_ENV },
				(error) => {
					done({
						code: error ? ((error as { code?: number }).code ?? 1) : 0,
						output: readFileSync(log, 'utf8'),
					});
				},
			);
		});
	}

	const cases: Array<[string, unknown, string]> = [
		[
			'a runtime dependency',
			{ ...original, dependencies: { axios: '1.13.2' } },
			'@n8n/community-nodes/no-runtime-dependencies',
		],
		[
			'a name without the n8n-nodes- prefix',
			{ ...original, name: 'workspace-practice-nodes' },
			'@n8n/community-nodes/package-name-convention',
		],
		[
			'a postinstall script',
			{ ...original, scripts: { ...original.scripts, postinstall: 'node setup.js' } },
			'@n8n/community-nodes/no-forbidden-lifecycle-scripts',
		],
		[
			'no n8n-community-node-package keyword',
			{
				...original,
				keywords: original.keywords.filter((k) => k !== 'n8n-community-node-package'),
			},
			'n8n-nodes-base/community-package-json-keywords-without-official-tag',
		],
		[
			'an author without e-mail',
			{ ...original, author: { name: 'Someone' } },
			'@n8n/community-nodes/valid-author',
		],
	];

	let control: { code: number; output: string };
	let results: Array<{ code: number; output: string }>;
	beforeAll(async () => {
		[control, ...results] = await Promise.all([
			lintCopy(original),
			...cases.map(([, pkg]) => lintCopy(pkg)),
		]);
	}, 120_000);

	it('passes with the package.json as it is (the control)', () => {
		expect(control.output).not.toMatch(/error/i);
		expect(control.code).toBe(0);
	});

	it.each(cases.map((c, i) => [c[0], i, c[2]] as const))('fails on %s', (_label, index, rule) => {
		expect(results[index].output).toContain(rule);
		expect(results[index].code).not.toBe(0);
	});
});
