// For every shipped source file and package.json: the ESLint config this repository's
// eslint.config.mjs gives it, next to the one n8n-node's own config (the strict-mode template, which
// exports it unchanged) gives it. Prints JSON: the files compared and every difference found.
// Run as a child process by lintConfig.test.ts (ESLint loads configs with import(), which jest's
// CommonJS runtime does not allow).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { config as n8nNodeConfig } from '@n8n/node-cli/eslint';

const root = process.argv[2];
const tracked = execFileSync(
	'git',
	['ls-files', '--cached', '--others', '--exclude-standard', 'nodes', 'credentials'],
	{
		cwd: root,
		encoding: 'utf8',
	},
)
	.split('\n')
	.filter((file) => file.endsWith('.ts'));
const files = ['package.json', ...tracked];

const ours = new ESLint({ cwd: root });
const theirs = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: n8nNodeConfig });

const sorted = (rules) =>
	JSON.stringify(
		Object.fromEntries(Object.entries(rules ?? {}).sort(([a], [b]) => a.localeCompare(b))),
	);
const parserName = (config) => {
	const parser = config?.languageOptions?.parser;
	return parser ? `${parser.meta?.name ?? '?'}@${parser.meta?.version ?? '?'}` : 'espree (default)';
};

const differences = [];
let ruleCount = 0;
for (const file of files) {
	const path = join(root, file);
	if (await ours.isPathIgnored(path))
		differences.push({ file, what: 'ignored by eslint.config.mjs' });
	const a = await ours.calculateConfigForFile(path);
	const b = await theirs.calculateConfigForFile(path);
	if (sorted(a?.rules) !== sorted(b?.rules)) {
		const names = new Set([...Object.keys(a?.rules ?? {}), ...Object.keys(b?.rules ?? {})]);
		const differing = [...names].filter(
			(n) => JSON.stringify(a?.rules?.[n]) !== JSON.stringify(b?.rules?.[n]),
		);
		differences.push({ file, what: `rules differ: ${differing.slice(0, 10).join(', ')}` });
	}
	if (a?.languageOptions?.parser !== b?.languageOptions?.parser) {
		differences.push({ file, what: `parser differs: ${parserName(a)} vs ${parserName(b)}` });
	}
	ruleCount = Math.max(ruleCount, Object.keys(b?.rules ?? {}).length);
}
const packageConfig = await ours.calculateConfigForFile(join(root, 'package.json'));
process.stdout.write(
	JSON.stringify({
		files,
		differences,
		maxRules: ruleCount,
		packageJsonParser: parserName(packageConfig),
		packageJsonRules: Object.keys(packageConfig?.rules ?? {}),
		noConsoleOnNodes: (
			await ours.calculateConfigForFile(
				join(
					root,
					tracked.find((f) => f.startsWith('nodes/')),
				),
			)
		).rules?.['no-console'],
	}),
);
