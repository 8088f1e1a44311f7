import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { validator } from '../validate';

/** Return All, and the Limit shown when it is off. */
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

export function readListOptions(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit: number; itemIndex: number } {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	// Checked here, once for every list: 0, negative, fractional or NaN would go out as page_size.
	const limit = returnAll
		? 0
		: validator(ctx, itemIndex).positiveInt('Limit', ctx.getNodeParameter('limit', itemIndex, 50));
	return { returnAll, limit, itemIndex };
}
