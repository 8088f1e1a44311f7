/** `npm run release` (scripts/release.ts) on a throwaway git repository holding copies of our files. */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

describe('release script', () => {
	const dir = mkdtempSync(join(tmpdir(), 'wsp-release-'));
	const git = (...args: string[]): string =>
		execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
	const release = (arg: string): { code: number | null; output: string } => {
		const run = spawnSync(TSX, [join(ROOT, 'scripts', 'release.ts'), arg], {
			cwd: dir,
			encoding: 'utf8',
		});
		return { code: run.status, output: `${run.stdout}${run.stderr}` };
	};
	const version = (file: string): string =>
		(JSON.parse(readFileSync(join(dir, file), 'utf8')) as { version: string }).version;
	const today = new Date().toISOString().slice(0, 10);

	beforeAll(() => {
		for (const file of ['package.json', 'package-lock.json'])
			cpSync(join(ROOT, file), join(dir, file));
		// Our CHANGELOG's head with nothing under Unreleased: the live file gains entries between releases,
		// and the test must not depend on them.
		const live = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
		const head = live.slice(0, live.indexOf('## Unreleased'));
		writeFileSync(
			join(dir, 'CHANGELOG.md'),
			`${head}## Unreleased\n\n## 0.1.0\n\nFirst release.\n`,
		);
		git('init', '-q', '-b', 'main');
		git('config', 'user.name', 'Release Test');
		git('config', 'user.email', 'release-test@example.com');
		git('add', '.');
		git('commit', '-qm', 'start');
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('tags the first release, 0.1.0, whose CHANGELOG section is already written', () => {
		expect(version('package.json')).toBe('0.1.0');
		const result = release('0.1.0');
		expect(result.output).toContain('v0.1.0 tagged');
		expect(result.code).toBe(0);
		expect(git('tag', '--list')).toBe('v0.1.0');
		expect(git('log', '-1', '--format=%s')).toBe('start');
	});

	it('refuses when nothing is written under Unreleased', () => {
		const result = release('patch');
		expect(result.code).toBe(1);
		expect(result.output).toContain('nothing under "## Unreleased"');
		expect(git('tag', '--list', 'v0.1.1')).toBe('');
		expect(git('status', '--porcelain')).toBe('');
	});

	it('refuses a working tree with uncommitted changes', () => {
		appendFileSync(join(dir, 'CHANGELOG.md'), '\n');
		const result = release('patch');
		expect(result.code).toBe(1);
		expect(result.output).toContain('not clean');
		git('checkout', 'CHANGELOG.md');
	});

	it('bumps the version, moves the Unreleased entries under it, commits and tags', () => {
		const changelog = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8').replace(
			'## Unreleased\n',
			'## Unreleased\n\n- New: something.\n',
		);
		writeFileSync(join(dir, 'CHANGELOG.md'), changelog);
		git('commit', '-qam', 'an entry');

		const result = release('minor');
		expect(result.code).toBe(0);
		expect(version('package.json')).toBe('0.2.0');
		expect(version('package-lock.json')).toBe('0.2.0');
		const after = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
		expect(after).toContain(
			`## Unreleased\n\n## 0.2.0 (${today})\n\n- New: something.\n\n## 0.1.0\n`,
		);
		expect(git('log', '-1', '--format=%s')).toBe('Release 0.2.0');
		expect(git('describe', '--tags', '--exact-match')).toBe('v0.2.0');
		expect(git('status', '--porcelain')).toBe('');
		expect(release('0.2.0').output).toContain('tag v0.2.0 already exists');
	});
});
