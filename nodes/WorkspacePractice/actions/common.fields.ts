import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { validator } from '../helpers/validate';

/** Wraps fields so they show only for one resource and operation. */
export function forOperation(resource: string, operation: string, fields: INodeProperties[]): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, fields);
}

/** The Return All toggle and the Limit that shows when it is off, as every n8n list offers. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** Reads Return All / Limit for an item. */
export function readListOptions(ctx: IExecuteFunctions, itemIndex: number): { returnAll: boolean; limit: number; itemIndex: number } {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	// Checked here, once for every list: 0, negative, fractional or NaN would go out as page_size.
	const limit = returnAll ? 0 : validator(ctx, itemIndex).positiveInt('Limit', ctx.getNodeParameter('limit', itemIndex, 50));
	return { returnAll, limit, itemIndex };
}

/** Drops empty values so only what the user filled in goes on the wire. */
export function compact(values: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(values)) {
		if (value === undefined || value === null || value === '') continue;
		if (Array.isArray(value) && value.length === 0) continue;
		out[key] = value;
	}
	return out;
}
