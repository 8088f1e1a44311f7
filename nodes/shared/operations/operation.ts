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

/** An operation: its form fields (scoped to its resource and operation) and its per-item work. */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult>;
	/** All items at once when that pays: an outcome per item in input order, or undefined (per item). */
	executeAll?(this: IExecuteFunctions): Promise<ItemOutcome[] | undefined>;
	/** The record as Simplify gives it (`withSimplify`); the router applies it while Simplify is on. */
	simplify?(record: IDataObject): IDataObject;
	/** Throws a better refusal of an unoffered value at `path` ("updateFields.status"), or returns. */
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
