/**
 * The README a newcomer reads first (issue 41): one block with the set-up, the demo, the tests and the
 * editor as commands, and every example workflow listed (a new file in examples/ needs its line). And
 * what an n8n admin must know under the durable scheduler, n8n's default from 2.45 (issue 57), in the
 * README's Install section and docs/n8n-admins.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const scripts = (
	JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	}
).scripts;

describe('README', () => {
	it('one block holds npm ci, npm run demo, npm test and npm run editor, each a real script', () => {
		const blocks = [...readme.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
		const block = blocks.find((text) => /^npm ci\b/m.test(text));
		expect(block).toBeDefined();
		const commands = block!
			.split('\n')
			.map((line) => line.replace(/#.*$/, '').trim())
			.filter(Boolean);
		expect(commands).toEqual(['npm ci', 'npm run demo', 'npm test', 'npm run editor']);
		for (const name of ['demo', 'test', 'editor']) expect(scripts[name]).toBeDefined();
	});

	it('lists every example workflow in examples/', () => {
		const files = readdirSync(join(ROOT, 'examples')).filter((name) => name.endsWith('.json'));
		expect(files.length).toBeGreaterThanOrEqual(10);
		const listed = [...readme.matchAll(/\]\(examples\/([\w-]+\.json)\)/g)].map((m) => m[1]);
		expect([...new Set(listed)].sort()).toEqual(files.sort());
	});

	it('Install: every main, worker and webhook process; deactivate before uninstalling; the admin page linked', () => {
		const install = readme.slice(
			readme.indexOf('## Install'),
			readme.indexOf('\n## ', readme.indexOf('## Install') + 1),
		);
		expect(install).toContain('every main, worker and webhook process');
		expect(install).toMatch(/deactivate or delete the\s+workflows/i);
		expect(install).toContain('(docs/n8n-admins.md)');
	});
});

describe('docs/n8n-admins.md', () => {
	const admins = readFileSync(join(ROOT, 'docs', 'n8n-admins.md'), 'utf8').replace(/\s+/g, ' ');
	it.each([
		['the durable default', /on by default from n8n 2\.45\.0/],
		['every process', /every main, every worker and every webhook process/],
		[
			'deactivate before uninstalling, and why (n8n #36340)',
			/deactivate or delete every workflow that uses its nodes\*\*.*whole instance.*pull\/36340/,
		],
		[
			'an abandoned poll is not cancelled; our deadline protects the day',
			/does not cancel it.*trigger's own deadline is what protects the workspace's day/,
		],
		['what it costs', /Its cost: the requests it sent/],
		[
			'the timeout rule',
			/\*\*36 s\*\*.*\*\*5 minutes\*\*.*Keep `N8N_SCHEDULER_POLL_TIMEOUT` under the 60 s lease/,
		],
	])('says %s', (_what, pattern) => {
		expect(admins).toMatch(pattern);
	});
});
