import type { IDataObject } from 'n8n-workflow';

import { hasText } from '../values';

/**
 * What a job callback carries, read the same way by the action node's resume webhook and the Job
 * Trigger: the header with the execution's secret, and the job the body names.
 */

/** Header carrying the execution's secret on callbacks to an Until Callback resume URL. */
export const CALLBACK_SECRET_HEADER = 'X-Workspace-Practice-Secret';

/** A job as a callback body claims it: at least its ID. */
export type ClaimedJob = IDataObject & { id: string };

/** The job a callback body describes: the job object itself, `{job: {...}}`, or any JSON with its ID. */
export function jobFromBody(body: unknown): ClaimedJob | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	const record = body as IDataObject;
	const nested =
		typeof record.job === 'object' && record.job !== null && !Array.isArray(record.job)
			? (record.job as IDataObject)
			: undefined;
	const source = nested ?? record;
	const id = source.id ?? record.job_id;
	if (typeof id === 'number') return { ...source, id: String(id) };
	if (!hasText(id)) return undefined;
	return { ...source, id: id.trim() };
}
