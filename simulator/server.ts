/** The HTTP pipeline: control surface, then latency, faults, auth, workspace, rate limit, route. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from './engine';
import { iso } from './clock';
import {
	ApiError,
	lowerHeaders,
	parseJsonBody,
	queryRecord,
	readBody,
	Router,
	type ApiResponse,
} from './http';
import { RESPONSE_SCHEMAS } from './routes/response-schemas';
import { errorEnvelopeSchema } from './schemas';

export const API_PREFIX = '/rest/v1';
export const CONTROL_PREFIX = '/__control';

const CREATE_PATHS = new Set(['/scenario-studio/jobs', '/scenario-studio']);

export type ControlHandler = (
	method: string,
	action: string,
	body: unknown,
	query: Record<string, string>,
) => Promise<ApiResponse>;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function send(res: ServerResponse, r: ApiResponse): void {
	const payload = r.body === undefined ? '' : JSON.stringify(r.body);
	res.writeHead(r.status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(payload),
		...r.headers,
	});
	res.end(payload);
}

function errorResponse(err: ApiError): ApiResponse {
	return { status: err.status, body: err.body(), headers: err.headers };
}

export function createHandler(
	engine: Engine,
	router: Router,
	apiKey: () => string,
	control: ControlHandler,
) {
	return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const method = (req.method ?? 'GET').toUpperCase();
		const query = queryRecord(url);
		let rawBody = '';
		try {
			rawBody = await readBody(req);
		} catch {
			res.destroy();
			return;
		}

		if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
			let r: ApiResponse;
			try {
				const body = parseJsonBody(rawBody);
				r = await control(method, url.pathname.slice(CONTROL_PREFIX.length + 1), body, query);
			} catch (err) {
				r =
					err instanceof ApiError
						? errorResponse(err)
						: { status: 500, body: { error: { type: 'server_error', message: String(err) } } };
			}
			send(res, r);
			return;
		}

		if (url.pathname !== API_PREFIX && !url.pathname.startsWith(`${API_PREFIX}/`)) {
			send(res, {
				status: 404,
				body: {
					error: {
						type: 'not_found',
						message: `No such path: ${url.pathname} (the API lives under ${API_PREFIX})`,
					},
				},
			});
			return;
		}
		const path = url.pathname.slice(API_PREFIX.length) || '/';
		const headers = lowerHeaders(req);
		let body: unknown = rawBody;
		let response: ApiResponse;
		try {
			body = parseJsonBody(rawBody);
		} catch {
			// keep the raw text for the record; the pipeline below reports the error
		}
		if (engine.faults.latencyMs > 0) await sleep(engine.faults.latencyMs);
		try {
			response = await pipeline(engine, router, apiKey(), method, path, query, rawBody, headers);
		} catch (err) {
			response =
				err instanceof ApiError
					? errorResponse(err)
					: {
							status: 500,
							body: {
								error: {
									type: 'server_error',
									message: err instanceof Error ? err.message : String(err),
								},
							},
						};
		}
		const dropped = engine.faults.takeDrop();
		engine.requests.push({
			method,
			path,
			query,
			body,
			headers,
			status: response.status,
			dropped,
			at: iso(engine.now()),
		});
		if (dropped) {
			// The work is done; the client never hears about it.
			res.socket?.destroy();
			res.destroy();
			return;
		}
		send(res, response);
	};
}

async function pipeline(
	engine: Engine,
	router: Router,
	key: string,
	method: string,
	path: string,
	query: Record<string, string>,
	rawBody: string,
	headers: Record<string, string>,
): Promise<ApiResponse> {
	const injected = engine.faults.takeFailure();
	if (injected) throw injected;

	const auth = headers.authorization ?? '';
	if (auth !== `Bearer ${key}`)
		throw new ApiError(
			401,
			'authentication_error',
			'The API key is invalid or inactive.',
			'invalid_api_key',
		);

	if (!engine.store.data.workspace.active)
		throw new ApiError(
			403,
			'authorization_error',
			'This workspace is inactive.',
			'workspace_inactive',
		);

	const limited = engine.faults.checkRateLimit(
		engine.now(),
		method === 'POST' && CREATE_PATHS.has(path),
	);
	if (limited) throw limited;

	const match = router.match(method, path);
	if (match === undefined)
		throw new ApiError(404, 'not_found', `No such endpoint: ${method} ${path}`);
	if (match === 'method')
		throw new ApiError(
			405,
			'invalid_request',
			`Method ${method} is not allowed on ${path}`,
			'method_not_allowed',
		);

	const body = parseJsonBody(rawBody);
	engine.tick(); // time-driven state is evaluated lazily on every request
	const response = await match.handler({
		method,
		path,
		params: match.params,
		query,
		body,
		headers,
	});
	return checked(match.key, response);
}

/**
 * A simulator bug must not pass for service behaviour: an answer that breaks its own
 * schema becomes a 500 naming the broken fields.
 */
function checked(key: string, response: ApiResponse): ApiResponse {
	const schema = response.status < 300 ? RESPONSE_SCHEMAS[key] : errorEnvelopeSchema;
	if (!schema) throw new Error(`simulator: no response schema for ${key}`);
	const result = schema.safeParse(response.body);
	if (result.success) return response;
	const issues = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
	return {
		status: 500,
		body: {
			error: {
				type: 'simulator_error',
				message: `Response of ${key} breaks its schema: ${issues}`,
			},
		},
	};
}
