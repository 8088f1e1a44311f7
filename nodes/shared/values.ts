import type { IDataObject } from 'n8n-workflow';

/** Text with something in it besides white space: the test for an optional string field the user filled. */
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

/**
 * An item as n8n numbers it in its UI, from 0: the error view's "Item Index", the expression editor's
 * item picker and the engine's own "[item 0]" all count from 0, so every message here does too.
 */
export function itemRef(itemIndex: number): string {
	return `Item ${itemIndex}`;
}
