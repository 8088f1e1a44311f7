/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		// isolatedModules: type checking is `npm run typecheck`'s job; per-file transpiling keeps jest fast.
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	// Node classes are imported as `X.node.js` so that no resolver can pick the codex file `X.node.json`;
	// tsc and tsx map `.js` to the TypeScript source themselves, jest is told here.
	moduleNameMapper: { '^(\\.{1,2}/.*\\.(?:node|credentials))\\.js$': '$1.ts' },
	setupFiles: ['<rootDir>/n8n-harness/setupEnv.ts'],
	// A temp folder for the run's n8n user folders, removed at the end (nothing left in the temp folder).
	globalSetup: '<rootDir>/test/support/globalSetup.js',
	globalTeardown: '<rootDir>/test/support/globalTeardown.js',
	// jest's transform cache inside the repository (ignored by git), not in the system temp folder.
	cacheDirectory: '<rootDir>/node_modules/.cache/jest',
	testTimeout: 30000,
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/support/summaryReporter.js'],
};
