/** An example workflow of examples/ as a user imports it, with this run's credentials put in. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { WorkflowJson } from '../../scripts/n8n/api';
import { REPO_ROOT } from '../../scripts/n8n/paths';
import type { CredentialRef } from '../../scripts/n8n/workflows';

export interface ExampleNode {
	name: string;
	type: string;
	webhookId?: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, CredentialRef>;
}

/** An example file with its credentials swapped for this run's (by credential type). */
export function loadExample(
	file: string,
	credentials: Record<string, CredentialRef>,
): { workflow: WorkflowJson; nodes: ExampleNode[] } {
	const json = JSON.parse(
		readFileSync(join(REPO_ROOT, 'examples', file), 'utf8'),
	) as WorkflowJson & { nodes: ExampleNode[] };
	for (const node of json.nodes) {
		for (const type of Object.keys(node.credentials ?? {})) {
			const ref = credentials[type];
			if (!ref) throw new Error(`${file}: no credential of type ${type} for "${node.name}"`);
			(node.credentials as Record<string, CredentialRef>)[type] = ref;
		}
	}
	return {
		workflow: {
			name: `e2e ${json.name}`,
			nodes: json.nodes as unknown as WorkflowJson['nodes'],
			connections: json.connections,
			settings: json.settings,
		},
		nodes: json.nodes,
	};
}

/** The example's node of that name (to adjust a setting for the test, as a user would in the editor). */
export function exampleNode(nodes: ExampleNode[], name: string): ExampleNode {
	const node = nodes.find((n) => n.name === name);
	if (!node) throw new Error(`the example has no node "${name}"`);
	return node;
}

/** Changes the example's Settings node as a user does: the values there are what a user edits. */
export function setSettings(nodes: ExampleNode[], values: Record<string, unknown>): void {
	const node = exampleNode(nodes, 'Settings');
	const json = JSON.parse(String(node.parameters.jsonOutput)) as Record<string, unknown>;
	for (const key of Object.keys(values))
		if (!(key in json)) throw new Error(`the example's Settings have no "${key}"`);
	node.parameters.jsonOutput = JSON.stringify({ ...json, ...values }, null, 2);
}

/**
 * An example as a stranger imports it (issue 49): no credential the file names exists in their n8n,
 * so every reference in the file is dropped, and each node that needs one gets the stranger's own
 * credential of its type as the set-up notes say. The notes must name that node in bold (or say
 * "every", "each" or "both" of them): a node the notes forget would stay without one.
 */
export function importAsStranger(
	file: string,
	credentials: Record<string, CredentialRef>,
): { workflow: WorkflowJson; nodes: ExampleNode[] } {
	const json = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', file), 'utf8')) as Omit<
		WorkflowJson,
		'nodes'
	> & { nodes: ExampleNode[] };
	const description = json.nodes.find(
		(n) =>
			n.type === 'n8n-nodes-base.stickyNote' &&
			String(n.parameters.content ?? '').includes('### Setup'),
	);
	const content = String(description?.parameters.content ?? '');
	const setUp = content.slice(content.indexOf('### Setup')).split('\n### ')[0];
	for (const node of json.nodes) {
		const types = Object.keys(node.credentials ?? {});
		delete node.credentials;
		if (types.length === 0) continue;
		const named = setUp.includes(`**${node.name}**`) || /\b(every|each|both)\b/i.test(setUp);
		if (!named)
			throw new Error(`${file}: the set-up notes never say to pick a credential in "${node.name}"`);
		node.credentials = {};
		for (const type of types) {
			const ref = credentials[type];
			if (!ref) throw new Error(`${file}: no credential of type ${type} for "${node.name}"`);
			node.credentials[type] = ref;
		}
	}
	return {
		workflow: {
			name: `e2e ${json.name}`,
			nodes: json.nodes as unknown as WorkflowJson['nodes'],
			connections: json.connections,
			settings: json.settings,
		},
		nodes: json.nodes,
	};
}
