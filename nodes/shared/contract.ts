/** The service's shapes the nodes rely on; types only, checked against the simulator's zod schemas. */

/** Pagination block of every list answer (spec 4.0). */
export interface Pagination {
	page: number;
	page_size: number;
	total_count: number;
	total_pages: number;
}

export interface ListEnvelope<T> {
	data: T[];
	pagination: Pagination;
}

/** The error envelope `{error: {type, code, message}}`; `retry_after` (seconds) only on 429. */
export interface ErrorEnvelope {
	error: {
		type: string;
		code?: string;
		message: string;
		retry_after?: number;
	};
}

/** Scenario job states (spec 3.1). */
export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** A Knowledge Hub folder as pickers show it. */
export interface FolderLabel {
	name: string;
	emoji: string | null;
}
