/**
 * The README a newcomer reads first (issue 41): one block with the set-up, the demo, the tests and the
 * editor as commands, and every example workflow listed (a new file in examples/ needs its line).
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
});
