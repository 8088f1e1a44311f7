import type { IDataObject } from 'n8n-workflow';

/** Text with something besides white space: an optional string field the user filled. */
export function hasText(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
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

/** An item as n8n's UI numbers it, from 0 (the error view, the item picker, "[item 0]"). */
export function itemRef(itemIndex: number): string {
	return `Item ${itemIndex}`;
}
