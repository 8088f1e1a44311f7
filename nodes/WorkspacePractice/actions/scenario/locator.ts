import type { IExecuteFunctions } from 'n8n-workflow';

import { validator } from '../../helpers/validate';

export interface LocatorValue {
	/** `list`, `id` or `url`; plain strings (an AI tool call, an old expression) count as `id`. */
	mode: string;
	value: string;
}

/** A resource locator's mode and non-empty value, checked before any request. */
export function readLocator(ctx: IExecuteFunctions, itemIndex: number, name: string, label: string): LocatorValue {
	const raw = ctx.getNodeParameter(name, itemIndex, '', { extractValue: false }) as unknown;
	const located =
		typeof raw === 'object' && raw !== null && 'value' in raw
			? { mode: String((raw as { mode?: unknown }).mode ?? 'id'), value: (raw as { value: unknown }).value }
			: { mode: 'id', value: raw };
	return { mode: located.mode, value: validator(ctx, itemIndex).required(label, located.value) };
}
