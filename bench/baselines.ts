/**
 * What a user builds without this package, written with a bare HTTP client (axios):
 * - the HTTP Request node's pagination: one page after another, page_size 50, until the last page;
 * - a poll loop: GET the job every 5 s (a Wait node in a loop) until it ends;
 * - one request per item, one after another.
 */
import axios, { type AxiosInstance } from 'axios';

export function client(baseUrl: string, apiKey: string): AxiosInstance {
	return axios.create({
		baseURL: baseUrl,
		headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
		// Every answer reaches the loop; it decides what to do with it.
		validateStatus: () => true,
	});
}

interface ListBody {
	data: unknown[];
	pagination: { total_pages: number };
}

/**
 * The HTTP Request node's "Update a Parameter in Each Request" pagination with page = $pageCount + 1,
 * completing when the page number reaches total_pages (the friendliest stop condition: no extra empty
 * page). Limit N stops as soon as N rows are in.
 */
export async function sequentialPageWalk(
	http: AxiosInstance,
	path: string,
	query: Record<string, string>,
	pageSize: number,
	limit = Infinity,
): Promise<{ rows: number; requests: number }> {
	let rows = 0;
	let requests = 0;
	for (let page = 1; ; page++) {
		const answer = await http.get<ListBody>(path, {
			params: { ...query, page, page_size: pageSize },
		});
		requests++;
		if (answer.status !== 200)
			throw new Error(`Page walk: ${path} page ${page} answered ${answer.status}`);
		rows += answer.data.data.length;
		if (
			rows >= limit ||
			page >= answer.data.pagination.total_pages ||
			answer.data.data.length === 0
		)
			break;
	}
	return { rows: Math.min(rows, limit), requests };
}

/** Sends the same GET once per item, one after another, as a plain script would. */
export async function bareLoop(http: AxiosInstance, path: string, count: number): Promise<number> {
	let ok = 0;
	for (let i = 0; i < count; i++) {
		const answer = await http.get(path);
		if (answer.status === 200) ok++;
	}
	return ok;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * Creates a job, then reads it every `intervalMs` (real milliseconds, already scaled by the caller)
 * until it ends. Returns the API calls made, create included.
 */
export async function naivePolling(
	http: AxiosInstance,
	body: Record<string, unknown>,
	intervalMs: number,
	maxPolls = 10_000,
): Promise<{ calls: number; status: string }> {
	const created = await http.post<{ id: string; status: string }>('/scenario-studio/jobs', body);
	if (created.status !== 201 && created.status !== 200)
		throw new Error(`Job create answered ${created.status}`);
	let calls = 1;
	let status = created.data.status;
	for (let poll = 0; poll < maxPolls && !TERMINAL.has(status); poll++) {
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
		const answer = await http.get<{ status: string }>(
			`/scenario-studio/jobs/${encodeURIComponent(created.data.id)}`,
		);
		calls++;
		if (answer.status === 200) status = answer.data.status;
	}
	return { calls, status };
}
