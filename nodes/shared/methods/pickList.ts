import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiList } from '../transport';

/**
 * Pick-lists (loadOptions) stop here: a dropdown or multi-select cannot page, and a workspace with
 * more would not fit one anyway; larger workspaces give IDs by expression.
 */
export const PICK_LIST_CAP = 500;

/** The first rows of a list endpoint, up to the cap, as dropdown options. */
export async function pickList(
	ctx: ILoadOptionsFunctions,
	path: string,
	toOption: (row: IDataObject) => INodePropertyOptions,
): Promise<INodePropertyOptions[]> {
	const rows = await apiList(ctx, path, {}, { returnAll: false, limit: PICK_LIST_CAP });
	return rows.map(toOption);
}
