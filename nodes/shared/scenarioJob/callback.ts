import type { IDataObject } from 'n8n-workflow';

import { hasText } from '../values';

/** Header carrying the execution's secret on callbacks to an Until Callback resume URL. */
export const CALLBACK_SECRET_HEADER = 'X-Workspace-Practice-Secret';

/** The job a callback body describes: the job itself, `{job: {...}}`, or any JSON with its ID. */
export function jobFromBody(body: unknown): (IDataObject & { id: string }) | undefined {
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

/** The Job Trigger's webhook path (`/webhook/<webhook ID>/workspace-practice-job`). */
export const JOB_TRIGGER_PATH = 'workspace-practice-job';

const JOB_ROUTING_PARAMETER = 'wsp_job';

/**
 * A Job Trigger's callback URL with `?wsp_job=<key>`, so a load balancer hashing the URI sends every
 * repeat of a job to one webhook process (n8n matches by path only). Other URLs stay as given.
 */
export function callbackUrlForJob(url: string, jobKey: string): string {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return url;
	}
	const path = parsed.pathname.replace(/\/+$/, '');
	if (!path.endsWith(`/${JOB_TRIGGER_PATH}`) || parsed.searchParams.has(JOB_ROUTING_PARAMETER))
		return url;
	parsed.searchParams.append(JOB_ROUTING_PARAMETER, jobKey);
	return parsed.toString();
}

/** The warning for a Callback URL on n8n's test path, which answers only while a test listens. */
export function testUrlNotice(url: unknown): string | undefined {
	if (typeof url !== 'string' || !/\/webhook-test\//.test(url)) return undefined;
	return "Callback URL is n8n's Test URL (/webhook-test/): n8n accepts the service's callback there only while the Job Trigger listens for a test event, otherwise it answers 404 and nothing starts. To test, click Execute step (Listen) on the Job Trigger before the job ends; for real runs, publish the workflow and use the Job Trigger's Production URL (/webhook/…).";
}
