/** Query and body validation helpers shared by the routes. */
import { badRequest, invalidValue, missingField } from './http';
import type { ListEnvelope } from './schemas';

export interface PageParams {
	page: number;
	pageSize: number;
}

const INT = /^[0-9]+$/;

export function pageParams(query: Record<string, string>): PageParams {
	const read = (name: 'page' | 'page_size', def: number, max: number): number => {
		const raw = query[name];
		if (raw === undefined) return def;
		const n = INT.test(raw) ? Number(raw) : NaN;
		if (!Number.isSafeInteger(n) || n < 1 || n > max) {
			const rule = name === 'page' ? 'an integer >= 1' : 'an integer from 1 to 100';
			throw badRequest(`${name} must be ${rule}, got "${raw}"`, 'invalid_pagination');
		}
		return n;
	};
	return { page: read('page', 1, Number.MAX_SAFE_INTEGER), pageSize: read('page_size', 50, 100) };
}

/** Slices rows into the list envelope. total_pages is 0 when there are no rows. */
export function paginate<T>(rows: readonly T[], p: PageParams): ListEnvelope<T> {
	const start = (p.page - 1) * p.pageSize;
	return {
		data: rows.slice(start, start + p.pageSize),
		pagination: {
			page: p.page,
			page_size: p.pageSize,
			total_count: rows.length,
			total_pages: Math.ceil(rows.length / p.pageSize),
		},
	};
}

/** Comma-separated list; empty items dropped. undefined when the parameter is absent or empty. */
export function csv(query: Record<string, string>, name: string): string[] | undefined {
	const raw = query[name];
	if (raw === undefined) return undefined;
	const items = raw
		.split(',')
		.map((s) => s.trim())
		.filter((s) => s !== '');
	return items.length ? items : undefined;
}

export function csvEnum<T extends string>(
	query: Record<string, string>,
	name: string,
	allowed: readonly T[],
): T[] | undefined {
	const items = csv(query, name);
	if (!items) return undefined;
	for (const item of items) {
		if (!(allowed as readonly string[]).includes(item)) {
			throw invalidValue(`${name} has an unknown value "${item}"; allowed: ${allowed.join(', ')}`);
		}
	}
	return items as T[];
}

export function bool(query: Record<string, string>, name: string): boolean {
	const raw = query[name];
	if (raw === undefined || raw === '') return false;
	const v = raw.toLowerCase();
	if (v === 'true' || v === '1') return true;
	if (v === 'false' || v === '0') return false;
	throw invalidValue(`${name} must be true or false, got "${raw}"`);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function parseDate(value: string, name: string): number {
	const ms = ISO_DATE.test(value) ? Date.parse(value) : NaN;
	if (Number.isNaN(ms)) throw invalidValue(`${name} must be an ISO 8601 date-time, got "${value}"`);
	return ms;
}

export function dateParam(query: Record<string, string>, name: string): number | undefined {
	const raw = query[name];
	if (raw === undefined || raw === '') return undefined;
	return parseDate(raw, name);
}

/** An optional query parameter that must be a UUID when present. */
export function uuidParam(query: Record<string, string>, name: string): string | undefined {
	const raw = query[name];
	if (raw === undefined || raw === '') return undefined;
	if (!isUuid(raw)) throw invalidValue(`${name} must be a UUID, got "${raw}"`);
	return raw;
}

/** `include` values; unknown ones are rejected so typos surface in tests. */
export function includes(query: Record<string, string>, allowed: readonly string[]): Set<string> {
	return new Set(csvEnum(query, 'include', allowed) ?? []);
}

/**
 * Sort parameter "field", or "-field" for descending where the list takes a direction (`flips`);
 * returns the field and whether it is descending.
 */
export function sortParam<T extends string>(
	raw: string | undefined,
	name: string,
	allowed: readonly T[],
	def: string,
	flips = true,
): { field: T; desc: boolean } {
	const value = raw === undefined || raw === '' ? def : raw;
	const desc = flips && value.startsWith('-');
	const field = (desc ? value.slice(1) : value) as T;
	if (!allowed.includes(field)) {
		const hint = flips ? ' (prefix - to flip)' : ' (each has a fixed order; no - prefix)';
		throw invalidValue(
			`${name} has an unknown value "${value}"; allowed: ${allowed.join(', ')}${hint}`,
		);
	}
	return { field, desc };
}

/**
 * The sort value of a list that names its parameter `accepted` (one name, or the spec's and the
 * OpenAPI's where they differ: given under both, the two must agree). A sort under a name the list
 * does not take is refused: the service would ignore it and answer in an order nobody asked for.
 */
export function sortInput(
	query: Record<string, string>,
	accepted: readonly string[],
	refused: readonly string[],
): { raw: string | undefined; name: string } {
	for (const name of refused) {
		if (query[name] !== undefined) {
			throw invalidValue(
				`${name} is not a parameter of this list; it sorts by ${accepted.join(' (or ')}${accepted.length > 1 ? ')' : ''}`,
			);
		}
	}
	const given = accepted.filter((name) => query[name] !== undefined);
	const values = new Set(given.map((name) => query[name]));
	if (values.size > 1) {
		throw invalidValue(
			`${given.join(' and ')} disagree (${given.map((name) => `"${query[name]}"`).join(' vs ')}); send one value`,
		);
	}
	return { raw: given.length > 0 ? query[given[0]] : undefined, name: given[0] ?? accepted[0] };
}

// ---------- body helpers ----------

export type Body = Record<string, unknown>;

export function objectBody(body: unknown): Body {
	if (body === undefined) return {};
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		throw badRequest('Request body must be a JSON object', 'invalid_json');
	}
	return body as Body;
}

export function optString(body: Body, field: string): string | undefined {
	const v = body[field];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'string') throw invalidValue(`${field} must be a string`);
	return v;
}

export function reqString(body: Body, field: string): string {
	const v = optString(body, field);
	if (v === undefined || v.trim() === '') throw missingField(field);
	return v;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(v: string): boolean {
	return EMAIL.test(v);
}
export function checkEmail(v: string, field: string): string {
	if (!isEmail(v)) throw invalidValue(`${field} must be an e-mail address, got "${v}"`);
	return v;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(v: string): boolean {
	return UUID.test(v);
}

export function isHttpUrl(v: string): boolean {
	try {
		const u = new URL(v);
		return u.protocol === 'http:' || u.protocol === 'https:';
	} catch {
		return false;
	}
}

export function optStringArray(body: Body, field: string): string[] | undefined {
	const v = body[field];
	if (v === undefined || v === null) return undefined;
	if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
		throw invalidValue(`${field} must be an array of strings`);
	return v as string[];
}

export function optInt(body: Body, field: string, min: number): number | undefined {
	const v = body[field];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
		throw invalidValue(`${field} must be an integer >= ${min}`);
	return v;
}

export function optEnum<T extends string>(
	body: Body,
	field: string,
	allowed: readonly T[],
): T | undefined {
	const v = optString(body, field);
	if (v === undefined) return undefined;
	if (!(allowed as readonly string[]).includes(v))
		throw invalidValue(`${field} must be one of ${allowed.join(', ')}, got "${v}"`);
	return v as T;
}
