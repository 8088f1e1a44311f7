import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../shared/transport';
import { resources } from './resources';
import type { OperationModule } from '../../shared/operations/operation';
import type { ResourceModule } from './types';

function findOperation(ctx: IExecuteFunctions, resource: string, operation: string): OperationModule {
	// Parameters are strings at run time (an expression or an old workflow may name anything).
	const module = (resources as Record<string, ResourceModule | undefined>)[resource]?.operations[operation];
	if (!module) {
		throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" of resource "${resource}" is not known`);
	}
	return module;
}

/** What an error item carries with Continue On Fail: enough to act on without opening the run. */
function errorItem(error: unknown): IDataObject {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		return {
			error: error.message,
			...(error.description ? { description: error.description } : {}),
			...(error instanceof NodeApiError && error.httpCode ? { httpCode: error.httpCode } : {}),
		};
	}
	return { error: error instanceof Error ? error.message : String(error) };
}

/**
 * The per-item loop, in one place: one call of the operation per input item, list rows split into
 * items, every output paired to its input, Continue On Fail turning an error into an item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = findOperation(this, resource, operation);
	const output: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await module.execute.call(this, itemIndex);
			for (const json of Array.isArray(result) ? result : [result]) {
				output.push({ json, pairedItem: { item: itemIndex } });
			}
		} catch (error) {
			if (this.continueOnFail()) {
				output.push({ json: errorItem(error), pairedItem: { item: itemIndex } });
				continue;
			}
			throw asNodeError(this.getNode(), error, itemIndex);
		}
	}
	return [output];
}
