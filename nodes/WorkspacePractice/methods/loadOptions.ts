import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiList } from '../transport';

/** Pick-lists stop here: a workspace with more would not fit a dropdown anyway. */
const PICK_LIST_CAP = 500;

async function options(
	ctx: ILoadOptionsFunctions,
	path: string,
	toOption: (row: IDataObject) => INodePropertyOptions,
): Promise<INodePropertyOptions[]> {
	const rows = await apiList(ctx, path, {}, { returnAll: false, limit: PICK_LIST_CAP });
	return rows.map(toOption);
}

function userLabel(user: IDataObject | undefined): string {
	const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ');
	return name ? `${name} <${String(user?.email)}>` : String(user?.email ?? '');
}

export async function getGroups(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await options(this, '/workspace/groups', (row) => ({ name: String(row.name), value: String(row.id) }));
}

export async function getCollections(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await options(this, '/collections', (row) => ({
		name: String(row.name),
		value: String(row.id),
		description: row.description ? String(row.description) : undefined,
	}));
}

export async function getMemberEmails(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await options(this, '/workspace/members', (row) => {
		const user = row.user as IDataObject | undefined;
		return { name: userLabel(user), value: String(user?.email ?? '') };
	});
}

export async function getMemberIds(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await options(this, '/workspace/members', (row) => {
		const user = row.user as IDataObject | undefined;
		return { name: userLabel(user), value: String(user?.id ?? '') };
	});
}
