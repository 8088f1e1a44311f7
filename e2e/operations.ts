/**
 * The action node's operations, read from its own description: the suite checks every one the node
 * offers, so an operation added without an end-to-end case fails the run instead of going unnoticed.
 */
import type { INodeProperties, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { join } from 'node:path';

export interface OperationRef {
	resource: string;
	operation: string;
	/** "Scenario Job → Create" */
	label: string;
}

function optionsOf(property: INodeProperties): INodePropertyOptions[] {
	return (property.options ?? []).filter(
		(o): o is INodePropertyOptions => 'value' in o && !('type' in o),
	);
}

/** Reads the compiled node inside the packed package: exactly what n8n loads. */
export async function listOperations(packageDir: string): Promise<OperationRef[]> {
	const file = join(packageDir, 'dist', 'nodes', 'WorkspacePractice', 'WorkspacePractice.node.js');
	const loaded = (await import(file)) as { WorkspacePractice: new () => INodeType };
	const { properties } = new loaded.WorkspacePractice().description;
	const resourceProp = properties.find((p) => p.name === 'resource');
	if (!resourceProp) throw new Error('the node has no Resource property');
	const refs: OperationRef[] = [];
	for (const resource of optionsOf(resourceProp)) {
		const operationProps = properties.filter(
			(p) =>
				p.name === 'operation' &&
				(p.displayOptions?.show?.resource ?? []).includes(resource.value as string),
		);
		for (const prop of operationProps) {
			for (const op of optionsOf(prop)) {
				refs.push({
					resource: String(resource.value),
					operation: String(op.value),
					label: `${resource.name} → ${op.name}`,
				});
			}
		}
	}
	return refs;
}
