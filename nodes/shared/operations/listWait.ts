import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../transport';
import type { WaitEnd, Waiting } from '../waitMany';
import type { ItemOutcome } from './operation';

/**
 * A "create, then wait" operation's list path as configuration: how an item's input is read, how its
 * thing is created, how many are waited on, and what an end becomes.
 */
export interface ListWait<P extends object, W extends Waiting<IDataObject>> {
	/** The item's wait mode; the list path runs when every item says 'poll'. */
	readMode: (ctx: IExecuteFunctions, itemIndex: number) => string;
	/** The item's input, checked before any request. */
	prepare: (ctx: IExecuteFunctions, itemIndex: number) => P;
	/** Creates the item's thing and says how to wait for it. */
	create: (ctx: IExecuteFunctions, item: P, itemIndex: number) => Promise<W>;
	wait: (ctx: IExecuteFunctions, waiting: W[]) => Promise<Array<WaitEnd<IDataObject>>>;
	/** The item's result from its thing's end; thrown, the item's error. */
	result: (ctx: IExecuteFunctions, waiting: W, value: IDataObject) => IDataObject;
}

/**
 * A list By Polling: every item's input is checked (without Continue On Fail, a bad item stops the
 * node before any request), then every thing is created in input order, then all are waited on
 * together, each on its own schedule and time limit: N things take about the creation time plus the
 * slowest one. Undefined when not every item polls (the per-item path runs instead).
 */
export async function createThenWaitAll<P extends object, W extends Waiting<IDataObject>>(
	ctx: IExecuteFunctions,
	spec: ListWait<P, W>,
): Promise<ItemOutcome[] | undefined> {
	if (!everyItemPolls(ctx, spec.readMode)) return undefined;
	const prepared = prepareAll(ctx, (itemIndex) => spec.prepare(ctx, itemIndex));
	const outcomes = new Array<ItemOutcome>(prepared.length);
	const waiting = await createInOrder(prepared, outcomes, async (item, itemIndex) =>
		spec.create(ctx, item, itemIndex),
	);
	const ends = await spec.wait(ctx, waiting);
	ends.forEach((end, n) => {
		const thing = waiting[n];
		if ('error' in end) {
			outcomes[thing.settings.itemIndex] = end;
			return;
		}
		try {
			outcomes[thing.settings.itemIndex] = { result: spec.result(ctx, thing, end.value) };
		} catch (error) {
			outcomes[thing.settings.itemIndex] = { error };
		}
	});
	return outcomes;
}

/**
 * Whether an operation's items wait together: more than one item, and every one By Polling. Then the
 * operation creates everything first and waits on all in one loop (its `executeAll`).
 */
function everyItemPolls(
	ctx: IExecuteFunctions,
	readMode: (ctx: IExecuteFunctions, itemIndex: number) => string,
): boolean {
	const count = ctx.getInputData().length;
	if (count < 2) return false;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			if (readMode(ctx, itemIndex) !== 'poll') return false;
		} catch {
			// An expression that fails here fails again, as that item's error, in the per-item path.
			return false;
		}
	}
	return true;
}

/**
 * Every item's input, read before any request. Without Continue On Fail a bad item stops the node
 * here, naming the item; with it the item keeps its error.
 */
function prepareAll<P>(
	ctx: IExecuteFunctions,
	prepare: (itemIndex: number) => P,
): Array<P | { error: unknown }> {
	const prepared: Array<P | { error: unknown }> = [];
	const count = ctx.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			prepared.push(prepare(itemIndex));
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx.getNode(), error, itemIndex);
			prepared.push({ error });
		}
	}
	return prepared;
}

/**
 * Creates the prepared items one after another, in input order. An item whose input or creation
 * failed gets its error in `outcomes`; the others come back as `create` made them, to be waited on.
 */
async function createInOrder<P extends object, W>(
	prepared: Array<P | { error: unknown }>,
	outcomes: ItemOutcome[],
	create: (item: P, itemIndex: number) => Promise<W>,
): Promise<W[]> {
	const created: W[] = [];
	for (let itemIndex = 0; itemIndex < prepared.length; itemIndex++) {
		const item = prepared[itemIndex];
		if ('error' in item) {
			outcomes[itemIndex] = item;
			continue;
		}
		try {
			created.push(await create(item, itemIndex));
		} catch (error) {
			outcomes[itemIndex] = { error };
		}
	}
	return created;
}
