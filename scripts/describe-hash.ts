/**
 * Prints a sha256 of each built node's and credential's description (JSON.stringify), read from
 * dist/ as n8n loads them. A refactor that must not change behaviour keeps these hashes: run
 * `npm run build && npx tsx scripts/describe-hash.ts` before and after and compare.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

import pkg from '../package.json';

type Described = { description: unknown; methods?: Record<string, Record<string, unknown>> };

const root = path.join(__dirname, '..');
const sha = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
	// Built CommonJS modules export one class each; load it the way n8n's loader does.
	const exported = require(path.join(root, file)) as Record<string, new () => Described>;
	for (const [name, Class] of Object.entries(exported)) {
		const instance = new Class() as Described | (Described & { properties: unknown });
		const description = file.includes('credentials') ? instance : instance.description;
		console.log(`${sha(description)}  ${name}`);
		// The methods n8n calls by name (listSearch, loadOptions, credentialTest): their names are part of the contract.
		const methods = 'methods' in instance && instance.methods ? instance.methods : undefined;
		if (methods) {
			const names = Object.fromEntries(Object.entries(methods).map(([kind, fns]) => [kind, Object.keys(fns).sort()]));
			console.log(`${sha(names)}  ${name} methods ${JSON.stringify(names)}`);
		}
	}
}
