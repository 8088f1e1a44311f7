// Lint: n8n's own rule sets on what ships (nodes, credentials, package.json), typescript-eslint on
// the rest. n8n's package scanner ignores eslint-disable comments, so rules here are met, not silenced.
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';
import * as jsoncParser from 'jsonc-eslint-parser';

const n8nPlugin = { 'n8n-nodes-base': n8nNodesBase };

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.e2e/**', 'bench/.tmp/**', '**/*.js', '**/*.mjs'] },
	...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts'] })),
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: n8nPlugin,
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: n8nPlugin,
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Wants a camelCase doc slug; @n8n/community-nodes' credential-documentation-url (the newer
			// rule n8n's scanner runs) requires a full URL for community packages. The two cannot both pass.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: n8nPlugin,
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// These two demand the string 'main'; @n8n/community-nodes' node-connection-type-literal (the
			// newer rule n8n's scanner runs) demands NodeConnectionTypes.Main. The newer rule wins.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		...communityNodes.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
	},
];
