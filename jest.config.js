/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		// isolatedModules: type checking is `npm run typecheck`'s job; per-file transpiling keeps jest fast.
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	testTimeout: 30000,
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/support/summaryReporter.js'],
};
