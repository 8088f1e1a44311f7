/**
 * n8n's community package scanner, run offline on the packed tarball and on the source (see scan.mjs
 * for how): 0 findings. Provenance, the scanner's first check, needs the registry and is not run here.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { packPackage } from '../../scripts/n8n/pack';

const ROOT = resolve(__dirname, '..', '..');
// jest's NODE_ENV=test puts eslint-plugin-n8n-nodes-base's package.json rules in their unit-test mode.
const { NODE_ENV: _jestEnv, ...SHELL_ENV } = process.env;

interface Analysis {
	passed: boolean;
	message?: string;
	details?: string;
}

function scan(sourceDir: string, tarball: string): { source: Analysis; tarball: Analysis } {
	const out = execFileSync(process.execPath, [join(__dirname, 'scan.mjs'), sourceDir, tarball], {
		encoding: 'utf8',
		env: SHELL_ENV,
	});
	return JSON.parse(out) as { source: Analysis; tarball: Analysis };
}

describe('@n8n/scan-community-package analysis', () => {
	let tarball: string;
	let result: { source: Analysis; tarball: Analysis };
	beforeAll(() => {
		tarball = packPackage();
		result = scan(ROOT, tarball);
	}, 180_000);

	it('finds nothing in the packed tarball', () => {
		expect(result.tarball.details ?? '').toBe('');
		expect(result.tarball.passed).toBe(true);
	});

	it('finds nothing in the source it would fetch through provenance', () => {
		expect(result.source.details ?? '').toBe('');
		expect(result.source.passed).toBe(true);
	});

	it('does find what it is there to find (a source copy with an author without e-mail and a console call)', () => {
		const copy = mkdtempSync(join(tmpdir(), 'wsp-scan-src-'));
		try {
			for (const entry of ['nodes', 'credentials', 'package.json'])
				cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
			const pkg = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as Record<
				string,
				unknown
			>;
			writeFileSync(
				join(copy, 'package.json'),
				JSON.stringify({ ...pkg, author: { name: 'Someone' } }, null, 2),
			);
			const node = join(copy, 'nodes', 'WorkspacePractice', 'WorkspacePractice.node.ts');
			writeFileSync(node, `${readFileSync(node, 'utf8')}\nconsole.log('loaded');\n`);
			const broken = scan(copy, tarball);
			expect(broken.source.passed).toBe(false);
			expect(broken.source.details).toContain('@n8n/community-nodes/valid-author');
			expect(broken.source.details).toContain('no-console');
		} finally {
			rmSync(copy, { recursive: true, force: true });
		}
	}, 60_000);
});
