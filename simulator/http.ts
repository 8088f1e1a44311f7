/** Tiny HTTP toolkit: API errors, a path router and JSON helpers over node:http. */
import type { IncomingMessage } from 'node:http';

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly type: string,
		message: string,
		readonly code?: string,
		readonly headers: Record<string, string> = {},
		readonly extra: Record<string, number> = {},
	) {
		super(message);
	}

	body(): { error: Record<string, unknown> } {
		const error: Record<string, unknown> = { type: this.type };
		if (this.code !== undefined) error.code = this.code;
		error.message = this.message;
		Object.assign(error, this.extra);
		return { error };
	}
}

export const badRequest = (message: string, code?: string): ApiError =>
	new ApiError(400, 'invalid_request', message, code);
export const notFound = (message: string, code?: string): ApiError =>
	new ApiError(404, 'not_found', message, code);
/** A value is present but not acceptable (format, enum, range). */
export const invalidValue = (message: string): ApiError => badRequest(message, 'invalid_value');
export const missingField = (field: string): ApiError =>
	badRequest(`Missing required field: ${field}`);

export interface ApiRequest {
	method: string;
	/** Path below /rest/v1, e.g. "/scenarios". */
	path: string;
	params: Record<string, string>;
	query: Record<string, string>;
	body: unknown;
	headers: Record<string, string>;
}

export interface ApiResponse {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

export type Handler = (req: ApiRequest) => ApiResponse | Promise<ApiResponse>;

interface Route {
	method: string;
	pattern: string;
	parts: string[];
	handler: Handler;
}

export class Router {
	private readonly routes: Route[] = [];

	add(method: string, pattern: string, handler: Handler): this {
		this.routes.push({ method, pattern, parts: pattern.split('/').filter(Boolean), handler });
		return this;
	}

	get(p: string, h: Handler): this {
		return this.add('GET', p, h);
	}
	post(p: string, h: Handler): this {
		return this.add('POST', p, h);
	}
	patch(p: string, h: Handler): this {
		return this.add('PATCH', p, h);
	}
	put(p: string, h: Handler): this {
		return this.add('PUT', p, h);
	}
	delete(p: string, h: Handler): this {
		return this.add('DELETE', p, h);
	}

	/** "METHOD pattern" of every route, e.g. "GET /scenarios/:id/access". */
	keys(): string[] {
		return this.routes.map((r) => `${r.method} ${r.pattern}`);
	}

	/** Literal segments win over parameters, so /scenarios/assignments is not /scenarios/{id}. */
	match(
		method: string,
		path: string,
	): { handler: Handler; params: Record<string, string>; key: string } | 'method' | undefined {
		const segs = path.split('/').filter(Boolean);
		let best: { route: Route; params: Record<string, string>; literals: number } | undefined;
		let pathMatched = false;
		for (const route of this.routes) {
			if (route.parts.length !== segs.length) continue;
			const params: Record<string, string> = {};
			let literals = 0;
			let ok = true;
			for (let i = 0; i < segs.length && ok; i++) {
				const part = route.parts[i];
				if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(segs[i]);
				else if (part === segs[i]) literals++;
				else ok = false;
			}
			if (!ok) continue;
			pathMatched = true;
			if (route.method !== method) continue;
			if (!best || literals > best.literals) best = { route, params, literals };
		}
		if (best)
			return {
				handler: best.route.handler,
				params: best.params,
				key: `${method} ${best.route.pattern}`,
			};
		return pathMatched ? 'method' : undefined;
	}
}

export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/** Parses a JSON request body; empty bodies are undefined. */
export function parseJsonBody(raw: string): unknown {
	if (raw.trim() === '') return undefined;
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		throw badRequest('Request body is not valid JSON', 'invalid_json');
	}
}

export function lowerHeaders(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers)) {
		if (v === undefined) continue;
		out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
	}
	return out;
}

export function queryRecord(url: URL): Record<string, string> {
	const out: Record<string, string> = {};
	// A repeated parameter is joined with commas, the same as the comma-separated form.
	for (const key of new Set(url.searchParams.keys()))
		out[key] = url.searchParams.getAll(key).join(',');
	return out;
}
