import type { IExecuteFunctions } from 'n8n-workflow';

import { asNodeError } from '../transport';
import type { ItemOutcome } from './operation';

/**
 * Whether an operation's items wait together: more than one item, and every one By Polling. Then the
 * operation creates everything first and waits on all in one loop (its `executeAll`).
 */
export function everyItemPolls(
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
export function prepareAll<P>(
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
export async function createInOrder<P extends object, W>(
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
