/**
 * The GitHub Actions workflows pass a workflow linter from the npm registry, offline:
 * @action-validator/cli (WebAssembly build of action-validator; validates against the workflow
 * schema and checks the paths and globs it names). Its command line is run as a user would run it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'node_modules', '@action-validator', 'cli', 'cli.mjs');
const WORKFLOWS = ['ci.yml', 'publish.yml'];

const read = (name: string): string =>
	readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8');

function validate(file: string): { code: number | null; output: string } {
	// cwd: the repository, so the globs a workflow names are checked against its files.
	const run = spawnSync(process.execPath, [CLI, file], { cwd: ROOT, encoding: 'utf8' });
	return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('workflow lint (action-validator)', () => {
	it.each(WORKFLOWS)('%s passes', (name) => {
		const result = validate(join('.github', 'workflows', name));
		expect(result.output).toBe('');
		expect(result.code).toBe(0);
	});

	describe('catches a broken workflow', () => {
		const dir = mkdtempSync(join(tmpdir(), 'wsp-workflows-'));
		afterAll(() => rmSync(dir, { recursive: true, force: true }));
		const broken: Array<[string, string, string, string]> = [
			[
				'publish.yml',
				'a misspelt permission value',
				'      id-token: write',
				'      id-token: writ',
			],
			['ci.yml', 'a misspelt job key', 'runs-on: ubuntu-latest', 'runs_on: ubuntu-latest'],
			[
				'ci.yml',
				'steps that are not a list',
				'    steps:\n      - uses: actions/checkout@v4',
				'    steps:\n      uses: actions/checkout@v4',
			],
		];
		it.each(broken)('%s with %s', (name, _what, from, to) => {
			const text = read(name);
			expect(text).toContain(from);
			const file = join(dir, name);
			writeFileSync(file, text.replace(from, to));
			const result = validate(file);
			expect(result.code).toBe(1);
			expect(result.output).toContain('"errors"');
		});
	});
});

describe('what the workflows do', () => {
	const ci = read('ci.yml');
	const publish = read('publish.yml');

	it('CI runs npm test on pull requests and main, then the real-n8n suite with the installs cached', () => {
		expect(ci).toMatch(/on:\n {2}pull_request:\n {2}push:\n {4}branches:\n {6}- main/);
		expect(ci).toContain('run: npm test');
		expect(ci).toContain('run: npm run test:e2e');
		expect(ci).toContain('uses: actions/cache@v4');
		expect(ci).toContain(
			"key: n8n-${{ runner.os }}-${{ hashFiles('scripts/n8n/install.sh', 'scripts/n8n/paths.ts', 'scripts/n8n/verify-native.js', 'scripts/n8n/locks/**') }}",
		);
		expect(ci).toContain('npm run e2e:install -- --v1');
	});

	it('publish runs on a version tag, tests, and publishes with provenance through trusted publishing', () => {
		expect(publish).toMatch(/on:\n {2}push:\n {4}tags:\n {6}- 'v\*\.\*\.\*'/);
		expect(publish).toContain('id-token: write');
		expect(publish).toContain('run: npm test');
		expect(publish).toContain('run: npm run build');
		expect(publish).toContain(
			"- name: Publish with provenance\n        if: ${{ env.FIRST_PUBLISH_TOKEN == '' }}\n        run: npm publish --provenance --access public",
		);
	});

	it('publishes the first version with a token and provenance, and refuses the token once the package exists', () => {
		const steps = publish.replace(/^\s*#.*$/gm, ''); // without comments
		// The one secret, read into the job's env and used by the first-publish step alone.
		expect(steps.match(/secrets\.\w+/g)).toEqual(['secrets.NPM_TOKEN_FIRST_PUBLISH']);
		expect(steps.match(/NODE_AUTH_TOKEN/g)).toHaveLength(1);
		const first = steps.slice(steps.indexOf('- name: First publish with provenance'));
		expect(first).toContain("if: ${{ env.FIRST_PUBLISH_TOKEN != '' }}");
		expect(first).toContain('NODE_AUTH_TOKEN: ${{ env.FIRST_PUBLISH_TOKEN }}');
		expect(first).toMatch(/if npm view "\$name" version[^\n]*\n[^\n]*\n\s*exit 1/);
		expect(first).toContain('npm publish --provenance --access public');
	});
});
