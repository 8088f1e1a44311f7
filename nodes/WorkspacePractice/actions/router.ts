import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { refuseUnofferedValues } from '../../shared/fields/offered';
import { isSimplifyOn } from '../../shared/output/simplified';
import { asNodeError, mapWithConcurrency, startRun } from '../../shared/transport';
import { readBatching } from './batching';
import { properties } from './properties';
import { resources } from './resources';
import { WithFiles } from '../../shared/operations/operation';
import type {
	ItemOutcome,
	OperationModule,
	OperationResult,
} from '../../shared/operations/operation';
import type { ResourceModule } from './types';

function findOperation(ctx: IExecuteFunctions, resource: string, operation: string) {
	// Parameters are strings at run time (an expression or an old workflow may name anything).
	const module = (resources as Record<string, ResourceModule | undefined>)[resource]?.operations[
		operation
	];
	if (module) return module;
	throw new NodeOperationError(
		ctx.getNode(),
		`The operation "${operation}" of resource "${resource}" is not known`,
	);
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

/** The item's records as its Simplify asks, each list row on its own; `undefined`: as returned. */
type Shape = ((record: IDataObject) => IDataObject) | undefined;

/**
 * Every item's Simplify and options values (`refuseUnofferedValues`), checked before any request. A
 * failure stops the node, as a bad input does; with Continue On Fail it is that item's error.
 */
function readShapes(
	ctx: IExecuteFunctions,
	module: OperationModule,
	count: number,
): { shapes: Shape[]; unreadable: Map<number, unknown> } {
	const shapes: Shape[] = [];
	const unreadable = new Map<number, unknown>();
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			refuseUnofferedValues(
				ctx.getNode(),
				properties,
				(name) => ctx.getNodeParameter(name, itemIndex, null),
				itemIndex,
				(path, value) => module.explainUnoffered?.call(ctx, itemIndex, path, value),
			);
			const on =
				module.simplify !== undefined &&
				isSimplifyOn(ctx, itemIndex, ctx.getNodeParameter('simplify', itemIndex, true));
			shapes.push(on ? module.simplify : undefined);
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx.getNode(), error, itemIndex);
			shapes.push(undefined);
			unreadable.set(itemIndex, error);
		}
	}
	return { shapes, unreadable };
}

function pushResult(
	output: INodeExecutionData[],
	result: OperationResult,
	itemIndex: number,
	shape: Shape,
): void {
	if (result instanceof WithFiles) {
		const json = shape ? shape(result.json) : result.json;
		output.push({ json, binary: result.binary, pairedItem: { item: itemIndex } });
		return;
	}
	for (const json of Array.isArray(result) ? result : [result]) {
		output.push({ json: shape ? shape(json) : json, pairedItem: { item: itemIndex } });
	}
}

/**
 * The outcomes in input order: without Continue On Fail the first failure is the error, with it an
 * error item. An item that never started (after a failure) has no outcome.
 */
function toOutput(
	ctx: IExecuteFunctions,
	outcomes: Array<ItemOutcome | undefined>,
	shapes: Shape[],
): INodeExecutionData[] {
	const output: INodeExecutionData[] = [];
	outcomes.forEach((outcome, itemIndex) => {
		if (outcome === undefined) return;
		if ('result' in outcome)
			return pushResult(output, outcome.result, itemIndex, shapes[itemIndex]);
		if (!ctx.continueOnFail()) throw asNodeError(ctx.getNode(), outcome.error, itemIndex);
		output.push({ json: errorItem(outcome.error), pairedItem: { item: itemIndex } });
	});
	return output;
}

/** The one per-item loop: `execute` per item (or `executeAll` once), Simplify on results only. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = findOperation(this, resource, operation);
	const batching = readBatching(this);
	startRun(this, batching);

	const { shapes, unreadable } = readShapes(this, module, items.length);
	// All at once only when every item read cleanly; an error of `executeAll` itself stops the node.
	const all =
		module.executeAll && unreadable.size === 0
			? await module.executeAll.call(this).catch((error: unknown) => {
					throw asNodeError(this.getNode(), error);
				})
			: undefined;
	const outcomes =
		all ?? (await eachItem(this, module, items.length, batching.itemsInParallel, unreadable));
	return [toOutput(this, outcomes, shapes)];
}

/** Without Continue On Fail no item starts after one failed, as in a loop one after another. */
async function eachItem(
	ctx: IExecuteFunctions,
	module: OperationModule,
	count: number,
	parallel: number,
	unreadable: Map<number, unknown>,
): Promise<Array<ItemOutcome | undefined>> {
	let failed = false;
	return await mapWithConcurrency(
		Array.from({ length: count }, (_, index) => index),
		parallel,
		async (itemIndex): Promise<ItemOutcome | undefined> => {
			if (failed) return undefined;
			if (unreadable.has(itemIndex)) return { error: unreadable.get(itemIndex) };
			try {
				return { result: await module.execute.call(ctx, itemIndex) };
			} catch (error) {
				if (!ctx.continueOnFail()) failed = true;
				return { error };
			}
		},
	);
}
