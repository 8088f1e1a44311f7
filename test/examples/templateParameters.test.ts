/**
 * Issue 49: every template's parameters are values its nodes' forms offer. Each node of ours in
 * examples/ is read against its built description (top-level fields, collections and fixedCollections,
 * displayOptions respected) by the check the nodes run before any request; expressions are left to the
 * run. The playbook rollout report once carried Wait for Completion "none", which the form does not
 * offer and which waited for a callback no one sent.
 */
import type { INode, INodeParameters, INodeType } from 'n8n-workflow';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { registry } from '../../n8n-harness/nodeTypes';
import { refuseUnofferedValues } from '../../nodes/shared/fields/offered';

interface NodeJson {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}

const DIR = join(__dirname, '..', '..', 'examples');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const nodesOf = (file: string): NodeJson[] =>
	(JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { nodes: NodeJson[] }).nodes;

/** The parameters with every expression taken out: what it gives is the run's business. */
function literal(value: unknown): unknown {
	if (typeof value === 'string' && value.startsWith('=')) return undefined;
	if (Array.isArray(value)) return value.map(literal).filter((v) => v !== undefined);
	if (value && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) {
			const kept = literal(entry);
			if (kept !== undefined) out[key] = kept;
		}
		return out;
	}
	return value;
}

/** The refusal the node would give this template node before any request, or undefined. */
function refusalOf(node: NodeJson): string | undefined {
	const nodeType = registry[node.type] as INodeType | undefined;
	if (!nodeType) return undefined;
	const parameters = literal(node.parameters) as INodeParameters;
	const asNode: INode = {
		id: node.name,
		name: node.name,
		type: node.type,
		typeVersion: node.typeVersion,
		position: [0, 0],
		// displayOptions read the stored parameters (expressions included: n8n shows those fields).
		parameters: node.parameters,
	};
	try {
		refuseUnofferedValues(asNode, nodeType.description.properties, (name) =>
			name in parameters ? parameters[name] : null,
		);
		return undefined;
	} catch (error) {
		return `${node.name}: ${(error as Error).message}`;
	}
}

const ours = (node: NodeJson): boolean => node.type.startsWith('n8n-nodes-workspace-practice.');

describe.each(FILES)('examples/%s', (file) => {
	test('every value of an options field is one its form offers', () => {
		const nodes = nodesOf(file).filter(ours);
		expect(nodes.map(refusalOf).filter((r) => r !== undefined)).toEqual([]);
	});
});

describe('the check catches what it is for', () => {
	const report = nodesOf('playbook-rollout-report.json');
	const scenario = report.find((n) => n.name === 'Scenario built from the page');

	test('the rollout report as it was (Wait for Completion "none") is flagged', () => {
		expect(scenario).toBeDefined();
		const before = {
			...scenario!,
			parameters: { ...scenario!.parameters, waitForCompletion: 'none' },
		};
		expect(refusalOf(before)).toMatch(
			/^Scenario built from the page: Wait for Completion: "none" is not one of its values; it takes Off \("off"\)/,
		);
	});

	test('a value inside a collection is flagged, with the collection’s label', () => {
		const pages = report.find((n) => n.name === 'Find the playbook page')!;
		const wrong = {
			...pages,
			parameters: { ...pages.parameters, filters: { status: 'live' } },
		};
		expect(refusalOf(wrong)).toMatch(/Filters → Status: "live" is not one of its values/);
	});
});
