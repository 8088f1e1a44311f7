/** The node types the packed package declares, as n8n names them: `<package name>.<node name>`. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

export async function packageNodeTypes(packageDir: string): Promise<string[]> {
	const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
		name: string;
		n8n: { nodes: string[] };
	};
	const names: string[] = [];
	for (const file of pkg.n8n.nodes) {
		const loaded = (await import(join(packageDir, file))) as Record<string, new () => INodeType>;
		for (const NodeClass of Object.values(loaded)) {
			if (typeof NodeClass !== 'function') continue;
			const instance = new NodeClass();
			if (instance.description?.name) names.push(`${pkg.name}.${instance.description.name}`);
		}
	}
	return names;
}
