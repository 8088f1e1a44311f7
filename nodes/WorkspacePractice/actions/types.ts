import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** One object, or list rows that the router splits into items. */
export type OperationResult = IDataObject | IDataObject[];

/** An operation: its form fields (already scoped to its resource/operation) and its per-item work. */
export interface OperationModule {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult>;
}

export interface ResourceModule {
	/** The entry in the Resource pick-list. */
	option: INodePropertyOptions;
	/** The Operation pick-list shown for this resource. */
	operation: INodeProperties;
	operations: Record<string, OperationModule>;
}
