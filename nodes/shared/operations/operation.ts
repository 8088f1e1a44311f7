import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

/** One object, or list rows that the router splits into items. */
export type OperationResult = IDataObject | IDataObject[];

/** An operation: its form fields (already scoped to its resource/operation) and its per-item work. */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult>;
}

/** Wraps fields so they show only for one resource and operation. */
export function forOperation(resource: string, operation: string, fields: INodeProperties[]): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, fields);
}
