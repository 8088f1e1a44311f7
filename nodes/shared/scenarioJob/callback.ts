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

/** The Job Trigger's webhook path: n8n serves it at `/webhook/<webhook ID>/workspace-practice-job`. */
export const JOB_TRIGGER_PATH = 'workspace-practice-job';

/** Query parameter that names the job on a callback URL pointing at a Job Trigger. */
export const JOB_ROUTING_PARAMETER = 'wsp_job';

/**
 * A callback URL that points at a Job Trigger, made unique per job: `?wsp_job=<key>` is added (any
 * query already there is kept), so a load balancer that hashes the request URI (nginx `hash
 * $request_uri consistent`) sends every repeat of one job's callback to the same webhook process.
 * n8n matches webhooks by path only, so the trigger still receives it. Other URLs are left as given.
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

/**
 * What to do when a Callback URL is on n8n's test path (`/webhook-test/`, a Job Trigger's Test URL):
 * n8n answers it only while the trigger listens for a test event, so otherwise the service's callback
 * gets a 404 and starts nothing. Undefined for any other URL.
 */
export function testUrlNotice(url: unknown): string | undefined {
	if (typeof url !== 'string' || !/\/webhook-test\//.test(url)) return undefined;
	return "Callback URL is n8n's Test URL (/webhook-test/): n8n accepts the service's callback there only while the Job Trigger listens for a test event, otherwise it answers 404 and nothing starts. To test, click Execute step (Listen) on the Job Trigger before the job ends; for real runs, publish the workflow and use the Job Trigger's Production URL (/webhook/…).";
}
