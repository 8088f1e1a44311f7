// Lint. What ships (nodes/, credentials/, package.json) is linted by n8n-node's own config, imported
// from the pinned @n8n/node-cli as is: the same rule sets (@n8n/community-nodes recommended with n8n
// Cloud support, n8n-nodes-base community/nodes/credentials, no-console, import-x) with the same
// parser (typescript-eslint's, also for package.json). test/publish/lintConfig.test.ts proves that every
// shipped file gets exactly the rules and parser n8n-node's config gives it.
//
// Why package.json has "strict": false: strict mode requires this file to be n8n-node's template
// verbatim, which lints every .ts file of the repository with the node rules. This repository also
// holds the simulator, tests, e2e and benchmarks, which need process, fs and console; so the node rules
// are scoped to what ships here instead, and the rest gets typescript-eslint's recommended rules.
// test/publish/strictMode.test.ts runs strict mode itself on the package staged as n8n sees it.
import { config as n8nNodeConfig } from '@n8n/node-cli/eslint';
import tseslint from 'typescript-eslint';

const SHIPPED = ['nodes/**', 'credentials/**', 'package.json'];

/** Narrows one of n8n-node's config blocks to the shipped files (each pattern AND a shipped path). */
function shippedOnly(block) {
	if (!block.files) return block;
	return {
		...block,
		files: block.files.flatMap((pattern) => SHIPPED.map((shipped) => [pattern, shipped])),
	};
}

export default [
	{
		ignores: [
			'dist/**',
			'coverage/**',
			'.e2e/**',
			'bench/.tmp/**',
			'.test-results/**',
			'**/*.js',
			'**/*.mjs',
		],
	},
	...n8nNodeConfig.map(shippedOnly),
	...tseslint.configs.recommended.map((block) => ({
		...block,
		files: ['**/*.ts'],
		ignores: SHIPPED,
	})),
	{
		files: ['**/*.ts'],
		ignores: SHIPPED,
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
];
