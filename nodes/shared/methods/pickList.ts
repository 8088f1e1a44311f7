import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiList } from '../transport';

/** A dropdown cannot page; a workspace with more gives IDs by expression. */
const PICK_LIST_CAP = 500;

/** A loadOptions method: the first rows of a list endpoint, up to the cap, as dropdown options. */
export function pickList(
	path: string,
	toOption: (row: IDataObject) => INodePropertyOptions,
): (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]> {
	return async function (this: ILoadOptionsFunctions) {
		const rows = await apiList(this, path, {}, { returnAll: false, limit: PICK_LIST_CAP });
		return rows.map(toOption);
	};
}
