/**
 * Prints a sha256 of each built node's and credential's description (JSON.stringify), read from
 * dist/ as n8n loads them, and of the names of the methods n8n calls (listSearch, loadOptions,
 * credentialTest). A refactor that must not change behaviour keeps these hashes: run
 * `npm run describe-hash` (it builds first) before and after and compare (CONTRIBUTING.md).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

import pkg from '../package.json';

interface Described {
	description?: unknown;
	methods?: Record<string, Record<string, unknown>>;
}

const root = path.join(__dirname, '..');
const sha = (value: unknown): string =>
	createHash('sha256').update(JSON.stringify(value)).digest('hex');

async function main(): Promise<void> {
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		// Each built module exports one class; a dynamic import also lists `default`, which is skipped.
		const exported = (await import(path.join(root, file))) as Record<string, unknown>;
		for (const [name, Class] of Object.entries(exported)) {
			if (name === 'default' || typeof Class !== 'function') continue;
			const instance = new (Class as new () => Described)();
			// A credential's description is the instance itself; a node's is its `description`.
			console.log(
				`${sha(file.includes('credentials') ? instance : instance.description)}  ${name}`,
			);
			if (instance.methods) {
				const names = Object.fromEntries(
					Object.entries(instance.methods).map(([kind, fns]) => [kind, Object.keys(fns).sort()]),
				);
				console.log(`${sha(names)}  ${name} methods ${JSON.stringify(names)}`);
			}
		}
	}
}

void main();
