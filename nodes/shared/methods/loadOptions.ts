import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { pickList } from './pickList';

/** Name, ID and, where there is one, the description. */
const named = (row: IDataObject): INodePropertyOptions => ({
	name: String(row.name),
	value: String(row.id),
	description: row.description ? String(row.description) : undefined,
});

function userLabel(user: IDataObject | undefined): string {
	const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ');
	return name ? `${name} <${String(user?.email)}>` : String(user?.email ?? '');
}

export async function getGroups(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickList(this, '/workspace/groups', (row) => ({ name: String(row.name), value: String(row.id) }));
}

export async function getCollections(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickList(this, '/collections', named);
}

export async function getMemberEmails(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickList(this, '/workspace/members', (row) => {
		const user = row.user as IDataObject | undefined;
		return { name: userLabel(user), value: String(user?.email ?? '') };
	});
}

export async function getMemberIds(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickList(this, '/workspace/members', (row) => {
		const user = row.user as IDataObject | undefined;
		return { name: userLabel(user), value: String(user?.id ?? '') };
	});
}

export async function getSkills(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await pickList(this, '/skills', named);
}
