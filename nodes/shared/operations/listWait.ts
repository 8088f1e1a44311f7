import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../transport';
import type { WaitEnd, Waiting } from '../waitMany';
import type { ItemOutcome } from './operation';

/** A "create, then wait" operation's list path as configuration. */
export interface ListWait<P extends object, W extends Waiting<IDataObject>> {
	/** The item's wait mode; the list path runs when every item says 'poll'. */
	readMode: (ctx: IExecuteFunctions, itemIndex: number) => string;
	/** The item's input, checked before any request. */
	prepare: (ctx: IExecuteFunctions, itemIndex: number) => P;
	create: (ctx: IExecuteFunctions, item: P, itemIndex: number) => Promise<W>;
	wait: (ctx: IExecuteFunctions, waiting: W[]) => Promise<Array<WaitEnd<IDataObject>>>;
	/** The item's result from its thing's end; thrown, the item's error. */
	result: (ctx: IExecuteFunctions, waiting: W, value: IDataObject) => IDataObject;
}

/**
 * Items all By Polling: every input checked, every thing created in order, then all waited on together
 * (the creations plus the slowest). Undefined for one item or another mode: the per-item path runs.
 */
export async function createThenWaitAll<P extends object, W extends Waiting<IDataObject>>(
	ctx: IExecuteFunctions,
	spec: ListWait<P, W>,
): Promise<ItemOutcome[] | undefined> {
	const indexes = ctx.getInputData().map((_, itemIndex) => itemIndex);
	try {
		if (indexes.length < 2 || !indexes.every((i) => spec.readMode(ctx, i) === 'poll'))
			return undefined;
	} catch {
		// An expression that fails here fails again, as that item's error, in the per-item path.
		return undefined;
	}
	// Without Continue On Fail a bad input stops the node before any request.
	const prepared = indexes.map((itemIndex): { item: P } | { error: unknown } => {
		try {
			return { item: spec.prepare(ctx, itemIndex) };
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx.getNode(), error, itemIndex);
			return { error };
		}
	});
	const outcomes = new Array<ItemOutcome>(indexes.length);
	const waiting: W[] = [];
	for (const [itemIndex, input] of prepared.entries()) {
		try {
			if ('error' in input) outcomes[itemIndex] = input;
			else waiting.push(await spec.create(ctx, input.item, itemIndex));
		} catch (error) {
			outcomes[itemIndex] = { error };
		}
	}
	const ends = await spec.wait(ctx, waiting);
	ends.forEach((end, n) => {
		const thing = waiting[n];
		try {
			outcomes[thing.settings.itemIndex] =
				'error' in end ? end : { result: spec.result(ctx, thing, end.value) };
		} catch (error) {
			outcomes[thing.settings.itemIndex] = { error };
		}
	});
	return outcomes;
}
