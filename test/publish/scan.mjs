// n8n's community package scanner (@n8n/scan-community-package, pinned), offline. Its CLI takes a
// package name and reads everything from the registry: provenance first, then the source repository the
// provenance names, then the published tarball. Here the same analysis runs on what we have: it calls the
// scanner's own exported analyzePackage() (its ESLint config, rule versions and file patterns) on
//   - the source tree (SOURCE_FILE_PATTERNS: package.json and nodes/credentials sources), as on the
//     provenance-attested checkout, and
//   - the unpacked tarball ('**/*.js' and package.json), as on the published package.
// Usage: node scan.mjs <source dir> <tarball.tgz>. Prints JSON {source, tarball}.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const [sourceDir, tarball] = process.argv.slice(2);
const packageDir = mkdtempSync(join(tmpdir(), 'wsp-scan-'));
try {
	execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	const brief = ({ passed, message, details }) => ({ passed, message, details });
	const source = brief(await analyzePackage(sourceDir, SOURCE_FILE_PATTERNS));
	const packed = brief(await analyzePackage(packageDir, ['**/*.js', 'package.json']));
	process.stdout.write(
		JSON.stringify({ source, tarball: packed, sourcePatterns: SOURCE_FILE_PATTERNS }),
	);
} finally {
	rmSync(packageDir, { recursive: true, force: true });
}
