/**
 * `npm run release -- <patch|minor|major|x.y.z>`: makes a release commit and its tag; pushing the tag
 * makes GitHub Actions publish it (.github/workflows/publish.yml, with provenance).
 *
 * 1. refuses a working tree with uncommitted changes, or a tag that already exists;
 * 2. sets the version in package.json and package-lock.json (`npm version --no-git-tag-version`);
 * 3. moves CHANGELOG.md's "Unreleased" entries under "## <version> (<date>)" (with no entries there,
 *    a "## <version>" section must already exist, as for the first release, 0.1.0);
 * 4. commits "Release <version>" and makes the annotated tag v<version>.
 * It pushes nothing: it prints the push command. Works in the current directory.
 *
 * n8n-node's own `release` command wraps release-it, which needs a GitHub remote, an upstream branch and
 * network access; this script does the local part only and leaves publishing to the workflow.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cwd = process.cwd();
const git = (...args: string[]): string =>
	execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

function fail(message: string): never {
	console.error(`release: ${message}`);
	process.exit(1);
}

function nextVersion(current: string, wanted: string): string {
	const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(current);
	if (!match) fail(`package.json's version "${current}" is not x.y.z`);
	const [major, minor, patch] = match.slice(1).map(Number);
	if (wanted === 'major') return `${major + 1}.0.0`;
	if (wanted === 'minor') return `${major}.${minor + 1}.0`;
	if (wanted === 'patch') return `${major}.${minor}.${patch + 1}`;
	if (/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(wanted)) return wanted;
	fail(`say which version: patch, minor, major or x.y.z (got "${wanted}")`);
}

/** CHANGELOG.md with the Unreleased entries moved under the new version; throws when there is nothing to release. */
function changelogFor(text: string, version: string, date: string): string {
	const unreleased = /^## Unreleased[ \t]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text);
	if (!unreleased) fail('CHANGELOG.md has no "## Unreleased" section');
	const entries = unreleased[1].trim();
	const escaped = version.replace(/\./g, '\\.');
	const hasSection = new RegExp(`^## ${escaped}( |$)`, 'm').test(text);
	if (!entries) {
		if (hasSection) return text;
		fail(
			`nothing under "## Unreleased" in CHANGELOG.md: write what changed in ${version} there first`,
		);
	}
	if (hasSection)
		fail(`CHANGELOG.md already has a "## ${version}" section and entries under Unreleased`);
	const section = `## Unreleased\n\n## ${version} (${date})\n\n${entries}\n\n`;
	return (
		text.slice(0, unreleased.index) + section + text.slice(unreleased.index + unreleased[0].length)
	);
}

function main(): void {
	const wanted = process.argv[2];
	if (!wanted) fail('usage: npm run release -- <patch|minor|major|x.y.z>');
	if (git('status', '--porcelain'))
		fail('commit or stash your changes first (the working tree is not clean)');

	const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { version: string };
	const version = nextVersion(pkg.version, wanted);
	const tag = `v${version}`;
	if (git('tag', '--list', tag)) fail(`tag ${tag} already exists`);

	const date = new Date().toISOString().slice(0, 10);
	const changelogPath = join(cwd, 'CHANGELOG.md');
	const changelog = readFileSync(changelogPath, 'utf8');
	const updated = changelogFor(changelog, version, date);

	if (version !== pkg.version) {
		execFileSync('npm', ['version', version, '--no-git-tag-version', '--ignore-scripts'], {
			cwd,
			stdio: 'ignore',
		});
	}
	if (updated !== changelog) writeFileSync(changelogPath, updated);
	if (git('status', '--porcelain')) {
		git(
			'add',
			'package.json',
			'CHANGELOG.md',
			...(git('ls-files', 'package-lock.json') ? ['package-lock.json'] : []),
		);
		git('commit', '-m', `Release ${version}`);
	}
	git('tag', '-a', tag, '-m', `Release ${version}`);
	console.log(`release: ${tag} tagged on ${git('rev-parse', '--short', 'HEAD')}.`);
	console.log(
		`Publish it: git push origin HEAD ${tag}   (the tag starts .github/workflows/publish.yml)`,
	);
}

main();
