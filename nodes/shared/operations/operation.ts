import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

/** One object with files for the output item's `binary` (e.g. a page's Markdown as a file). */
export class WithFiles {
	constructor(
		readonly json: IDataObject,
		readonly binary: IBinaryKeyData,
	) {}
}

/** One object, list rows that the router splits into items, or one object with files. */
export type OperationResult = IDataObject | IDataObject[] | WithFiles;

/** What one item came to when an operation handles all items at once: its result or its error. */
export type ItemOutcome = { result: OperationResult } | { error: unknown };

/** An operation: its form fields (already scoped to its resource/operation) and its per-item work. */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult>;
	/**
	 * Optional: all input items at once, when working on them together is faster (e.g. waiting on many
	 * jobs in one loop). Returns one outcome per input item, in input order, or `undefined` when the
	 * form's settings call for the per-item `execute` after all. The router still pairs the outcomes
	 * and applies Continue On Fail.
	 */
	executeAll?(this: IExecuteFunctions): Promise<ItemOutcome[] | undefined>;
	/**
	 * Optional: the record as Simplify gives it. Set by `withSimplify`, which also adds the toggle to the
	 * form; the router applies it to every result (each list row) while the item's Simplify is on.
	 */
	simplify?(record: IDataObject): IDataObject;
	/**
	 * Optional: a value its form does not offer at `path` ("updateFields.status") that the operation
	 * explains better than "not one of its values" (why it does not apply here, what to use): throws
	 * that error, or returns to let the generic refusal stand. Called before any request.
	 */
	explainUnoffered?(this: IExecuteFunctions, itemIndex: number, path: string, value: unknown): void;
}

/** Wraps fields so they show only for one resource and operation. */
export function forOperation(
	resource: string,
	operation: string,
	fields: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, fields);
}
