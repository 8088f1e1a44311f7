/** Scenario Studio: asynchronous jobs (spec 3.1) and interactive sessions. */
import type { Engine } from '../engine';
import { badRequest, invalidValue, notFound, type Router } from '../http';
import { isHttpUrl, objectBody, optString, reqString } from '../query';
import { cancelJob, createJob } from '../state/jobs';
import { renderJob, workspaceUrl } from '../state/render';
import type { JobRec, StudioSessionRec } from '../state/types';
import { memberOr400 } from './scenarios';

export const PROMPT_MAX = 10_000;
export const CONTEXT_MAX = 50_000;

function jobOr404(engine: Engine, id: string): JobRec {
	const job = engine.store.jobs.get(id);
	if (!job) throw notFound(`Job not found: ${id}`, 'job_not_found');
	return job;
}

function headersField(value: unknown): Record<string, string> {
	if (value === undefined || value === null) return {};
	if (
		typeof value !== 'object' ||
		Array.isArray(value) ||
		Object.values(value).some((v) => typeof v !== 'string')
	) {
		throw invalidValue('callback_headers must be an object of string values');
	}
	return { ...(value as Record<string, string>) };
}

export function registerStudio(router: Router, engine: Engine): void {
	const { store } = engine;

	router.post('/scenario-studio/jobs', ({ body: raw }) => {
		const body = objectBody(raw);
		const email = reqString(body, 'user_email');
		const prompt = reqString(body, 'prompt');
		if (prompt.length > PROMPT_MAX)
			throw badRequest(
				`prompt is ${prompt.length} characters; the limit is ${PROMPT_MAX}`,
				'prompt_too_long',
			);
		const context = optString(body, 'context');
		// The spec leaves this code open; context_too_long mirrors prompt_too_long.
		if (context !== undefined && context.length > CONTEXT_MAX) {
			throw badRequest(
				`context is ${context.length} characters; the limit is ${CONTEXT_MAX}`,
				'context_too_long',
			);
		}
		const slug = optString(body, 'scenario_slug');
		const requestId = optString(body, 'request_id');
		const callbackUrl = optString(body, 'callback_url');
		if (callbackUrl !== undefined && !isHttpUrl(callbackUrl))
			throw invalidValue(`callback_url must be an http(s) URL, got "${callbackUrl}"`);
		const callbackHeaders = headersField(body.callback_headers);
		const user = memberOr400(store, email);
		const remix = slug !== undefined ? store.scenarioBySlug(slug) : undefined;
		if (slug !== undefined && !remix) throw notFound(`Scenario not found: ${slug}`);

		if (requestId !== undefined) {
			const existing = [...store.jobs.values()].find((j) => j.requestId === requestId);
			if (existing) return { status: 200, body: { ...renderJob(store, existing), is_new: false } };
		}
		const job = createJob(
			store,
			{
				userId: user.id,
				prompt,
				context: context ?? null,
				remixOfId: remix?.id ?? null,
				requestId: requestId ?? null,
				callbackUrl: callbackUrl ?? null,
				callbackHeaders,
			},
			engine.now(),
			engine.jobTimings,
		);
		return { status: 201, body: { ...renderJob(store, job), is_new: true } };
	});

	router.get('/scenario-studio/jobs/:id', ({ params }) => ({
		status: 200,
		body: renderJob(store, jobOr404(engine, params.id)),
	}));

	router.delete('/scenario-studio/jobs/:id', ({ params }) => {
		const job = jobOr404(engine, params.id);
		if (job.status !== 'queued' && job.status !== 'processing') {
			throw badRequest(
				`Job ${job.id} is ${job.status} and cannot be cancelled`,
				'job_not_cancellable',
			);
		}
		cancelJob(job, engine.now());
		void engine.sendCallback(job);
		return { status: 200, body: renderJob(store, job) };
	});

	// 201 for a new session, 200 when request_id matches an existing one (the spec leaves the codes open).
	router.post('/scenario-studio', ({ body: raw }) => {
		const body = objectBody(raw);
		const email = reqString(body, 'user_email');
		const prompt = reqString(body, 'prompt');
		const requestId = optString(body, 'request_id');
		const user = memberOr400(store, email);
		const url = (s: StudioSessionRec): string => `${workspaceUrl(store)}/chat/${s.id}`;
		if (requestId !== undefined) {
			const existing = [...store.studioSessions.values()].find((s) => s.requestId === requestId);
			if (existing)
				return { status: 200, body: { id: existing.id, url: url(existing), is_new: false } };
		}
		const session: StudioSessionRec = {
			id: store.rng.shortId(),
			userId: user.id,
			prompt,
			requestId: requestId ?? null,
			createdAt: engine.now(),
		};
		store.studioSessions.set(session.id, session);
		return { status: 201, body: { id: session.id, url: url(session), is_new: true } };
	});
}
