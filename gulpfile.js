// Build: compile the nodes and credentials, then copy the icons next to the compiled files, where n8n
// looks for them (`icon: 'file:...'` resolves relative to the .node.js / .credentials.js file).
const { src, dest, series } = require('gulp');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

function clean(done) {
	fs.rmSync(path.join(__dirname, 'dist'), { recursive: true, force: true });
	done();
}

function compile(done) {
	execFileSync(
		process.execPath,
		[require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
		{
			stdio: 'inherit',
		},
	);
	done();
}

function copyIcons() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports.clean = clean;
exports.build = series(clean, compile, copyIcons);
exports['build:icons'] = copyIcons;
exports.default = exports.build;
