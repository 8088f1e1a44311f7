/** Validation of Knowledge Hub id lists in request bodies. */
import { invalidValue } from '../http';
import { isUuid, optStringArray, type Body } from '../query';
import type { Store } from '../state/store';

type Kind = 'folder' | 'source' | 'skill';

function exists(store: Store, kind: Kind, id: string): boolean {
	if (kind === 'folder') return !!store.folder(id);
	if (kind === 'skill') return !!store.skill(id);
	const src = store.source(id);
	return !!src && !src.archived;
}

/** An optional array of UUIDs that must all name existing records. */
export function idList(store: Store, body: Body, field: string, kind: Kind): string[] | undefined {
	const ids = optStringArray(body, field);
	if (!ids) return undefined;
	for (const id of ids) {
		if (!isUuid(id)) throw invalidValue(`${field} must contain UUIDs; "${id}" is not one`);
		if (!exists(store, kind, id)) throw invalidValue(`${field}: no ${kind} with id ${id}`);
	}
	return [...new Set(ids)];
}
