import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isSimplifyOn } from '../../shared/output/simplified';
import { asNodeError, setPaceLimits } from '../../shared/transport';
import { readBatching } from './batching';
import { resources } from './resources';
import { WithFiles } from '../../shared/operations/operation';
import type {
	ItemOutcome,
	OperationModule,
	OperationResult,
} from '../../shared/operations/operation';
import type { ResourceModule } from './types';

function findOperation(
	ctx: IExecuteFunctions,
	resource: string,
	operation: string,
): OperationModule {
	// Parameters are strings at run time (an expression or an old workflow may name anything).
	const module = (resources as Record<string, ResourceModule | undefined>)[resource]?.operations[
		operation
	];
	if (!module) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of resource "${resource}" is not known`,
		);
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

/** The item's records shaped as its Simplify asks: each list row on its own. `undefined`: as returned. */
type Shape = ((record: IDataObject) => IDataObject) | undefined;

/** Reads Simplify for an item (before its request), when the operation offers it. */
function shapeFor(ctx: IExecuteFunctions, module: OperationModule, itemIndex: number): Shape {
	if (!module.simplify) return undefined;
	return isSimplifyOn(ctx, itemIndex, ctx.getNodeParameter('simplify', itemIndex, true))
		? module.simplify
		: undefined;
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
 * Every item's shape, read before `executeAll` sends anything. One that cannot be read stops the node
 * there, as `executeAll` stops on a bad input; with Continue On Fail it is undefined instead, and the
 * per-item path makes it that item's error item.
 */
function allShapes(
	ctx: IExecuteFunctions,
	module: OperationModule,
	count: number,
): Shape[] | undefined {
	const shapes: Shape[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			shapes.push(shapeFor(ctx, module, itemIndex));
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx.getNode(), error, itemIndex);
			return undefined;
		}
	}
	return shapes;
}

/**
 * The per-item loop, in one place: one call of the operation per input item (or one call of its
 * `executeAll` for all of them), list rows split into items, Simplify applied to every result (never
 * to an error item), every output paired to its input, Continue On Fail turning an error into an item.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = findOperation(this, resource, operation);
	const batching = readBatching(this);
	setPaceLimits(this, batching);
	const output: INodeExecutionData[] = [];

	// All at once only when every item's Simplify reads cleanly: a bad one fails before any request.
	const shapes = module.executeAll ? allShapes(this, module, items.length) : undefined;
	const outcomes = module.executeAll && shapes ? await runAll(this, module.executeAll) : undefined;
	if (outcomes && shapes) {
		// Every item has run; without Continue On Fail the first failure in input order is the error.
		outcomes.forEach((outcome, itemIndex) => {
			if ('result' in outcome)
				return pushResult(output, outcome.result, itemIndex, shapes[itemIndex]);
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), outcome.error, itemIndex);
			output.push({ json: errorItem(outcome.error), pairedItem: { item: itemIndex } });
		});
		return [output];
	}

	// Items run `itemsInParallel` at a time; each result waits in its slot so the output keeps the
	// input order. Without Continue On Fail, no item starts after one failed, and the first failure in
	// input order stops the node, as in a loop one after another.
	const results: Array<{ result: OperationResult; shape: Shape } | { error: unknown }> = [];
	let failed = false;
	await forEachInParallel(items.length, batching.itemsInParallel, async (itemIndex) => {
		if (failed) return false;
		try {
			const shape = shapeFor(this, module, itemIndex);
			results[itemIndex] = { result: await module.execute.call(this, itemIndex), shape };
		} catch (error) {
			results[itemIndex] = { error };
			if (!this.continueOnFail()) failed = true;
		}
		return !failed;
	});
	for (let itemIndex = 0; itemIndex < results.length; itemIndex++) {
		const outcome = results[itemIndex];
		if (outcome === undefined) continue;
		if ('result' in outcome) {
			pushResult(output, outcome.result, itemIndex, outcome.shape);
			continue;
		}
		if (!this.continueOnFail()) throw asNodeError(this.getNode(), outcome.error, itemIndex);
		output.push({ json: errorItem(outcome.error), pairedItem: { item: itemIndex } });
	}
	return [output];
}

/**
 * Calls `work` for indexes 0..count-1 in order, at most `parallel` at a time; a call answering false
 * stops new ones from starting (those in flight finish).
 */
async function forEachInParallel(
	count: number,
	parallel: number,
	work: (index: number) => Promise<boolean>,
): Promise<void> {
	let next = 0;
	let go = true;
	const worker = async () => {
		while (go && next < count) go = await work(next++);
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, count)) }, worker));
}

/** An error thrown by `executeAll` itself (not one item's) stops the node, as one item's would. */
async function runAll(
	ctx: IExecuteFunctions,
	executeAll: NonNullable<OperationModule['executeAll']>,
): Promise<ItemOutcome[] | undefined> {
	try {
		return await executeAll.call(ctx);
	} catch (error) {
		throw asNodeError(ctx.getNode(), error);
	}
}
