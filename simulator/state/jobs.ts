/** Scenario job state machine (spec 3.1), driven by the clock. */
import { slugify } from './random';
import type { Store } from './store';
import type { JobRec, JobTimings, ScenarioRec } from './types';

/**
 * A prompt containing `[fail:CODE]` makes the job fail with that code when processing
 * ends, e.g. `[fail:GENERATION_ERROR]` or `[fail:CONTENT_POLICY_VIOLATION]`.
 */
export const JOB_FAIL_MARKER = /\[fail:([A-Z][A-Z0-9_]*)\]/;

const FAILURE_TEXT: Record<string, string> = {
	GENERATION_ERROR: 'The agent could not build a scenario from this prompt.',
	CONTENT_POLICY_VIOLATION: 'The request was refused by the content policy.',
};

export function failureFor(code: string): { code: string; message: string } {
	return { code, message: FAILURE_TEXT[code] ?? `Scenario generation failed (${code}).` };
}

export interface NewJob {
	userId: string;
	prompt: string;
	context: string | null;
	remixOfId: string | null;
	requestId: string | null;
	callbackUrl: string | null;
	callbackHeaders: Record<string, string>;
}

export function createJob(store: Store, input: NewJob, now: number, timings: JobTimings): JobRec {
	const marker = JOB_FAIL_MARKER.exec(input.prompt);
	const job: JobRec = {
		id: store.rng.shortId(),
		status: 'queued',
		...input,
		createdAt: now,
		anchor: now,
		startedAt: null,
		completedAt: null,
		scenarioId: null,
		error: null,
		timings: {
			queuedMs: timings.queuedMs,
			processingMs: timings.processingMs,
			hold: timings.hold ?? false,
		},
		plannedFailure: marker ? failureFor(marker[1]) : null,
	};
	store.jobs.set(job.id, job);
	return job;
}

export const isTerminal = (j: JobRec): boolean =>
	j.status === 'completed' || j.status === 'failed' || j.status === 'cancelled';

/**
 * Moves a job along its schedule up to `now`. Transition times are the scheduled ones,
 * not the time of observation, so results do not depend on how often anyone polls.
 * Returns true when the job reached a terminal state in this call.
 */
export function advanceJob(store: Store, job: JobRec, now: number): boolean {
	if (job.timings.hold || isTerminal(job)) return false;
	if (job.status === 'queued') {
		const startAt = job.anchor + job.timings.queuedMs;
		if (now < startAt) return false;
		job.status = 'processing';
		job.startedAt = startAt;
		job.anchor = startAt;
	}
	if (job.status === 'processing') {
		const endAt = job.anchor + job.timings.processingMs;
		if (now < endAt) return false;
		finishJob(store, job, endAt, job.plannedFailure);
		return true;
	}
	return false;
}

/** Ends a processing (or queued) job: failure when given, otherwise a new scenario. */
export function finishJob(
	store: Store,
	job: JobRec,
	at: number,
	failure: { code: string; message: string } | null,
): void {
	if (job.startedAt === null) job.startedAt = at;
	job.completedAt = at;
	if (failure) {
		job.status = 'failed';
		job.error = failure;
		return;
	}
	job.status = 'completed';
	job.error = null;
	job.scenarioId = createScenarioFromJob(store, job, at).id;
}

export function cancelJob(job: JobRec, now: number): void {
	job.status = 'cancelled';
	job.completedAt = now;
	job.scenarioId = null;
	job.error = null;
}

function uniqueSlug(store: Store, base: string): string {
	let slug = base;
	for (let n = 2; store.scenarioBySlug(slug); n++) slug = `${base}-${n}`;
	return slug;
}

function nameFromPrompt(prompt: string): string {
	const words = prompt
		.replace(JOB_FAIL_MARKER, '')
		.trim()
		.split(/\s+/)
		.filter(Boolean)
		.slice(0, 8)
		.join(' ');
	const name = words || 'Untitled scenario';
	return name.charAt(0).toUpperCase() + name.slice(1);
}

function createScenarioFromJob(store: Store, job: JobRec, at: number): ScenarioRec {
	const source = job.remixOfId ? store.scenarioById(job.remixOfId) : undefined;
	const name = source ? `${source.name} (remix)` : nameFromPrompt(job.prompt);
	const scenario: ScenarioRec = {
		id: store.rng.uuid(),
		name,
		description: `Created by the scenario agent from: ${job.prompt.slice(0, 120)}`,
		slug: uniqueSlug(store, slugify(name)),
		difficulty: source?.difficulty ?? 'medium',
		context: job.context ?? source?.context ?? null,
		objective:
			source?.objective ??
			'Reach an agreed next step.\n\n##### Outcomes to Avoid:\n- Ending without a next step',
		language: source?.language ?? 'English',
		visibility: 'private',
		ownerId: job.userId,
		createdAt: at,
		updatedAt: at,
		skillIds: source ? [...source.skillIds] : [],
		collectionIds: [],
		archived: false,
		userShares: {},
		groupShares: {},
	};
	store.data.scenarios.push(scenario);
	return scenario;
}
