import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemRef } from './values';

/** Input checks before any request; each failure names the field as the form shows it, and the rule. */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE_TIME =
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
// A date alone, or midnight with no zone: what n8n's date-time picker gives when a day is clicked.
const WHOLE_DAY = /^(\d{4}-\d{2}-\d{2})(?:[T ]00:00(?::00(?:\.0{1,9})?)?)?$/;

/**
 * A multi-select's entries: its list, or the comma-separated text an expression gives, trimmed, empty
 * entries left out; undefined for anything else. The one reading of a list value (offered.ts, `list`,
 * the trigger's events).
 */
export function listEntries(value: unknown): unknown[] | undefined {
	if (Array.isArray(value)) return value as unknown[];
	if (typeof value !== 'string') return undefined;
	return value
		.split(',')
		.map((part) => part.trim())
		.filter((part) => part !== '');
}

/** `end`: an inclusive upper bound, where a whole day runs to 23:59:59 UTC (times are to the second). */
type DateBound = 'exact' | 'end';

export class InputValidator {
	constructor(
		private readonly node: INode,
		private readonly itemIndex: number,
	) {}

	/** Fails with the shared format, for a rule no other method covers. */
	fail(field: string, rule: string): never {
		throw new NodeOperationError(this.node, `${field}: ${rule}`, {
			itemIndex: this.itemIndex,
			description: `${itemRef(this.itemIndex)}: fix "${field}" and run again. No request was sent.`,
		});
	}

	/** A text value as given; an object or a list is refused (never sent as "[object Object]"). */
	text(field: string, value: unknown): string {
		if (value === undefined || value === null) return '';
		if (typeof value === 'string') return value;
		if (typeof value === 'number' || typeof value === 'boolean') return String(value);
		return this.fail(field, `must be text, but the expression returned ${describe(value)}`);
	}

	required(field: string, value: unknown): string {
		const text = this.text(field, value).trim();
		if (text === '') this.fail(field, 'is required and cannot be empty');
		return text;
	}

	positiveInt(field: string, value: unknown): number {
		const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
			this.fail(
				field,
				`must be a whole number of 1 or more, got ${typeof value === 'string' ? `"${value}"` : describe(value)}`,
			);
		}
		return number;
	}

	/** Multi-select values or comma-separated text, trimmed, empty entries left out; else refused. */
	list(field: string, value: unknown): string[] {
		if (value === undefined || value === null) return [];
		const entries = listEntries(value);
		if (entries === undefined)
			return this.fail(
				field,
				`must be a list or comma-separated text, but the expression returned ${describe(value)}`,
			);
		return entries
			.map((entry) => this.text(`${field} (each entry)`, entry).trim())
			.filter((part) => part !== '');
	}

	email(field: string, value: unknown): string {
		const text = this.required(field, value);
		if (!EMAIL.test(text)) this.fail(field, `must be an e-mail address, got "${text}"`);
		return text;
	}

	uuid(field: string, value: unknown): string {
		const text = this.required(field, value);
		if (!UUID.test(text)) this.fail(field, `must be a UUID (8-4-4-4-12 hex digits), got "${text}"`);
		return text;
	}

	/** A date or date-time from the picker or an expression, as ISO 8601 UTC. */
	dateTime(field: string, value: unknown, bound: DateBound = 'exact'): string {
		if (value instanceof Date) {
			if (Number.isNaN(value.getTime())) this.fail(field, 'must be a valid ISO 8601 date-time');
			return value.toISOString();
		}
		// Luxon DateTime objects from expressions ($now) carry toISO().
		if (typeof value === 'object' && value !== null && 'toISO' in value) {
			const iso = (value as { toISO: () => string | null }).toISO();
			if (iso) return new Date(iso).toISOString();
		}
		const text = this.required(field, value);
		if (
			!ISO_DATE_TIME.test(text) ||
			Number.isNaN(Date.parse(text)) ||
			!isCalendarDay(text.slice(0, 10))
		) {
			this.fail(field, `must be an ISO 8601 date-time such as 2026-01-31T09:00:00Z, got "${text}"`);
		}
		const day = WHOLE_DAY.exec(text)?.[1];
		if (day !== undefined && bound === 'end') return new Date(`${day}T23:59:59Z`).toISOString();
		// A date-time without a zone is read as UTC (the API's zone), never as the n8n host's local time.
		const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(text);
		const withZone =
			text.length === 10 ? `${text}T00:00:00Z` : hasZone ? text : `${text.replace(' ', 'T')}Z`;
		return new Date(withZone).toISOString();
	}

	webUrl(field: string, value: unknown): string {
		const text = this.required(field, value);
		if (!isWebUrl(text))
			this.fail(field, `must be a web address starting with http:// or https://, got "${text}"`);
		return text;
	}

	maxLength(field: string, value: string, max: number): string {
		if (value.length > max) {
			this.fail(
				field,
				`must be at most ${max.toLocaleString('en-US')} characters, got ${value.length.toLocaleString('en-US')}`,
			);
		}
		return value;
	}

	intRange(field: string, value: unknown, min: number, max: number): number {
		const number = typeof value === 'string' ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
			this.fail(field, `must be a whole number from ${min} to ${max}, got "${String(value)}"`);
		}
		return number;
	}

	/** A lower bound not above its upper bound (ISO dates or numbers); skipped when one is missing. */
	ordered(
		field: string,
		low: string | number | undefined,
		high: string | number | undefined,
		rule: string,
	): void {
		if (low === undefined || high === undefined) return;
		const a = typeof low === 'number' ? low : Date.parse(low);
		const b = typeof high === 'number' ? high : Date.parse(high);
		if (a > b) this.fail(field, rule);
	}

	matches(field: string, value: string, pattern: RegExp, rule: string): RegExpExecArray {
		const match = pattern.exec(value);
		if (!match) this.fail(field, rule);
		return match;
	}

	uuidList(field: string, value: unknown): string[] {
		return this.list(field, value).map((entry) => this.uuid(field, entry));
	}

	emailList(field: string, value: unknown): string[] {
		return this.list(field, value).map((entry) => this.email(field, entry));
	}
}

/** Whether YYYY-MM-DD names a real day: Date.parse rolls 2026-02-30 over to 2 March instead of failing. */
function isCalendarDay(date: string): boolean {
	const [year, month, day] = date.split('-').map(Number);
	const parsed = new Date(Date.UTC(year, month - 1, day));
	return (
		parsed.getUTCFullYear() === year &&
		parsed.getUTCMonth() === month - 1 &&
		parsed.getUTCDate() === day
	);
}

function isWebUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/** A value as an error message shows it: text in quotes, anything else as JSON. */
export function quoted(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
}

/** What an expression returned, for an error message (short, never the whole value). */
function describe(value: unknown): string {
	if (Array.isArray(value)) return `a list (${value.length} entries)`;
	if (value === null) return 'null';
	if (typeof value === 'object') return `an object (${JSON.stringify(value).slice(0, 60)})`;
	return `${typeof value} ${String(value)}`;
}

export function validator(ctx: { getNode(): INode }, itemIndex: number): InputValidator {
	return new InputValidator(ctx.getNode(), itemIndex);
}
