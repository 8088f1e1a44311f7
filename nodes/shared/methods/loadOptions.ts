import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { pickList } from './pickList';

/** Name, ID and, where there is one, the description. */
const named = (row: IDataObject): INodePropertyOptions => ({
	name: String(row.name),
	value: String(row.id),
	description: row.description ? String(row.description) : undefined,
});

export async function getGroups(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickList(this, '/workspace/groups', (row) => ({
		name: String(row.name),
		value: String(row.id),
	}));
}

export async function getCollections(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickList(this, '/collections', named);
}

export async function getSkills(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickList(this, '/skills', named);
}
