/**
 * The control handle: in-process for tests, and over HTTP (POST /__control/<method>)
 * for other processes. Every method below is reachable both ways.
 */
import type { CallbackDelivery } from './callbacks';
import { isManualClock, type Clock } from './clock';
import type { Engine, RecordedRequest } from './engine';
import type { RateLimits, RateLimitUsage } from './faults';
import { ApiError, type ApiResponse } from './http';
import { z } from 'zod';

import {
	assignmentStatusSchema,
	rankSchema,
	type Assignment,
	type AssignmentStatus,
	type JobStatus,
	type PageDetail,
	type ScenarioJob,
	type SessionListItem,
	type Source,
	type SourceStatus,
} from './schemas';
import { cancelJob, failureFor, finishJob, isTerminal } from './state/jobs';
import { archivePage, createPage, updatePage, type PagePatch } from './state/pages';
import { renderJob, renderPageDetail, renderSource } from './state/render';
import { fixturesOf, type Fixtures } from './fixtures';
import { createSource, settleSource, type SourceTimings } from './state/sources';
import {
	addAssignment,
	addSession,
	fillPractice,
	refreshPastDue,
	setAssignmentStatus,
	scorePending,
	scoreSession,
	simulatePractice,
	type PracticeMix,
	type PracticeSize,
} from './state/practice';
import { renderAssignment, renderSession } from './state/render';
import type { Store, TerminalStatus, TimestampPrecision } from './state/store';
import type { AssignmentChange, JobTimings, KbVisibility, UserRec } from './state/types';

export interface RequestFilter {
	method?: string;
	/** Exact path, or a prefix when it ends with '*'. */
	path?: string;
}

export interface PageInput {
	title: string;
	content?: string;
	status?: 'draft' | 'published';
	visibility?: KbVisibility;
	folderIds?: string[];
	sourceIds?: string[];
	skillIds?: string[];
	/** Owner and author; defaults to the API user. */
	asEmail?: string;
}

export interface ObservationInput {
	userEmail: string;
	skillId: string;
	score: number;
	/** ISO date-time or epoch ms. */
	at: string | number;
	kind?: 'session' | 'call';
}

export interface SessionInput {
	userEmail: string;
	/** Scenario id or slug. */
	scenario: string;
	/** Omit or null: listed unscored until scoreSession. */
	score?: number | null;
	/** How long before now the session was created (it shows up late); default 0. */
	lateByMs?: number;
}

/**
 * An assignment as an admin (or a program) gives it: the service's POST only makes not-started ones
 * without a program; this also makes program assignments and ones in any status.
 */
export const assignmentInputSchema = z
	.object({
		userEmail: z.string(),
		/** Scenario id or slug. */
		scenario: z.string(),
		status: assignmentStatusSchema.default('not_started'),
		/** ISO date-time or epoch ms; null: no due date. */
		dueDate: z.union([z.string(), z.number(), z.null()]).optional(),
		attemptMin: z.number().int().min(1).default(1),
		attemptMax: z.number().int().min(1).nullable().default(null),
		rankMin: rankSchema.exclude(['unranked']).nullable().default(null),
		programId: z.string().nullable().default(null),
		/** How long before now it was created (it shows up late); default 0. */
		earlierByMs: z.number().min(0).default(0),
	})
	.strict();
export type AssignmentInput = z.input<typeof assignmentInputSchema>;

export class Control {
	constructor(private readonly engine: Engine) {}

	get store(): Store {
		return this.engine.store;
	}

	get clock(): Clock {
		return this.engine.clock;
	}

	// ---------- requests ----------

	requests(filter: RequestFilter = {}): RecordedRequest[] {
		return this.engine.requests.filter((r) => {
			if (filter.method && r.method !== filter.method.toUpperCase()) return false;
			if (filter.path)
				return filter.path.endsWith('*')
					? r.path.startsWith(filter.path.slice(0, -1))
					: r.path === filter.path;
			return true;
		});
	}

	clearRequests(): void {
		this.engine.requests.length = 0;
	}

	// ---------- faults and limits ----------

	failNext(count: number, status: 500 | 503 = 500): void {
		if (status !== 500 && status !== 503) throw new Error('failNext: status must be 500 or 503');
		this.engine.faults.failNext(count, status);
	}

	dropNext(count: number): void {
		this.engine.faults.dropNext(count);
	}

	setLatency(ms: number): void {
		this.engine.faults.latencyMs = Math.max(0, ms);
	}

	/**
	 * true = deployed limits (60/min, 10 creations/min, 1000/day); false/null = off; object = custom.
	 * A 429 for a full minute counts against the day unless `countRejected: false`.
	 */
	setRateLimits(limits: Partial<RateLimits> | boolean | null): void {
		this.engine.faults.setRateLimits(limits);
	}

	/** Requests in the rate-limit windows now: served this minute, counted today, 429s among them. */
	rateLimitUsage(): RateLimitUsage {
		return this.engine.faults.usage(this.engine.now());
	}

	/** 'second' (the default, as the deployed service) or 'millisecond'; kept across reset(). */
	setTimestampPrecision(precision: TimestampPrecision): void {
		this.engine.store.precision = precision;
	}

	/** Which terminal statuses send the job callback (default completed only); kept across reset(). */
	setCallbackStatuses(statuses: readonly TerminalStatus[]): void {
		this.engine.store.callbackStatuses = [...statuses];
	}

	setWorkspaceActive(active: boolean): void {
		this.engine.store.data.workspace.active = active;
	}

	// ---------- time ----------

	setJobTimings(t: JobTimings): void {
		this.engine.setJobTimings(t);
	}

	setSourceTimings(t: SourceTimings): void {
		this.engine.setSourceTimings(t);
	}

	/** Evaluates every time-driven transition now (and fires due callbacks). */
	tick(): void {
		this.engine.tick();
	}

	/** Moves a ManualClock forward (and ticks). Throws with a real clock. */
	advance(ms: number): void {
		const clock = this.engine.clock;
		if (!isManualClock(clock)) throw new Error('advance: the simulator runs on a real clock');
		clock.advance(ms);
		this.engine.tick();
	}

	setTime(date: string | number): void {
		const clock = this.engine.clock;
		if (!isManualClock(clock)) throw new Error('setTime: the simulator runs on a real clock');
		clock.set(date);
		this.engine.tick();
	}

	now(): string {
		return new Date(this.engine.now()).toISOString();
	}

	// ---------- callbacks ----------

	callbacks(): CallbackDelivery[] {
		return [...this.engine.callbacks.deliveries];
	}

	/** Resolves when every callback sent so far has been answered (or failed). */
	waitForCallbacks(): Promise<void> {
		return this.engine.callbacks.idle();
	}

	/** Sends the job's callback again (same body and headers), e.g. to prove a receiver ignores duplicates. */
	redeliverCallback(jobId: string): Promise<CallbackDelivery> {
		const job = this.jobRec(jobId);
		if (!isTerminal(job))
			throw new Error(`redeliverCallback: job ${jobId} is ${job.status}, not finished`);
		const p = this.engine.sendCallback(job);
		if (!p) throw new Error(`redeliverCallback: job ${jobId} has no callback_url`);
		return p;
	}

	// ---------- jobs ----------

	private jobRec(jobId: string) {
		const job = this.engine.store.jobs.get(jobId);
		if (!job) throw new Error(`unknown job ${jobId}`);
		return job;
	}

	getJob(jobId: string): ScenarioJob {
		this.engine.tick();
		return renderJob(this.engine.store, this.jobRec(jobId));
	}

	/** Completes a job now (creating its scenario), or fails it with `failCode`. Fires the callback. */
	finishJob(jobId: string, failCode?: string): ScenarioJob {
		const job = this.jobRec(jobId);
		if (isTerminal(job)) throw new Error(`finishJob: job ${jobId} is already ${job.status}`);
		finishJob(this.engine.store, job, this.engine.now(), failCode ? failureFor(failCode) : null);
		void this.engine.sendCallback(job);
		return renderJob(this.engine.store, job);
	}

	/** Forces a job into a state, stamping times as the state machine would. Terminal states fire the callback. */
	setJobState(jobId: string, status: JobStatus, failCode = 'GENERATION_ERROR'): ScenarioJob {
		const job = this.jobRec(jobId);
		const now = this.engine.now();
		job.timings.hold = true; // a forced state stays put
		if (status === 'queued')
			Object.assign(job, {
				status,
				anchor: now,
				startedAt: null,
				completedAt: null,
				error: null,
				scenarioId: null,
			});
		else if (status === 'processing')
			Object.assign(job, {
				status,
				startedAt: job.startedAt ?? now,
				anchor: now,
				completedAt: null,
				error: null,
				scenarioId: null,
			});
		else if (status === 'cancelled') cancelJob(job, now);
		else finishJob(this.engine.store, job, now, status === 'failed' ? failureFor(failCode) : null);
		if (isTerminal(job)) void this.engine.sendCallback(job);
		return renderJob(this.engine.store, job);
	}

	/** Lets a held job follow its timings again, measured from now. */
	releaseJob(jobId: string): void {
		const job = this.jobRec(jobId);
		job.timings.hold = false;
		job.anchor = this.engine.now();
		this.engine.tick();
	}

	// ---------- knowledge hub ----------

	private userOrApi(email?: string): UserRec {
		if (!email) return this.engine.store.apiUser();
		const user = this.engine.store.userByEmail(email);
		if (!user) throw new Error(`unknown user ${email}`);
		return user;
	}

	private pageRec(pageId: string) {
		const page = this.engine.store.page(pageId);
		if (!page) throw new Error(`unknown page ${pageId}`);
		return page;
	}

	createPage(input: PageInput): PageDetail {
		const user = this.userOrApi(input.asEmail);
		const page = createPage(
			this.engine.store,
			{ ...input, ownerId: user.id },
			user.id,
			this.engine.now(),
		);
		return renderPageDetail(this.engine.store, page, true);
	}

	/** Same rules as PATCH, acting as `asEmail` (default the API user); `ai` makes an AI-generated version. */
	updatePage(pageId: string, patch: PagePatch, asEmail?: string, ai = false): PageDetail {
		const page = this.pageRec(pageId);
		const user = ai ? null : this.userOrApi(asEmail);
		updatePage(
			this.engine.store,
			page,
			patch,
			user?.id ?? null,
			this.engine.now(),
			ai ? 'ai_generation' : 'manual_edit',
		);
		return renderPageDetail(this.engine.store, page, true);
	}

	publishPage(pageId: string, asEmail?: string, ai = false): PageDetail {
		return this.updatePage(pageId, { status: 'published' }, asEmail, ai);
	}

	archivePage(pageId: string): void {
		archivePage(this.engine.store, this.pageRec(pageId), this.engine.now());
	}

	createSource(input: {
		url: string;
		title?: string;
		folderIds?: string[];
		asEmail?: string;
	}): Source {
		const user = this.userOrApi(input.asEmail);
		const src = createSource(
			this.engine.store,
			{
				url: input.url,
				title: input.title ?? input.url,
				cover: '',
				folderIds: input.folderIds ?? [],
				createdById: user.id,
			},
			this.engine.now(),
			this.engine.sourceTimings,
		);
		return renderSource(this.engine.store, src);
	}

	setSourceStatus(sourceId: string, status: SourceStatus): Source {
		const src = this.engine.store.source(sourceId);
		if (!src) throw new Error(`unknown source ${sourceId}`);
		const now = this.engine.now();
		if (status === 'ready' || status === 'failed') settleSource(src, now, status);
		else {
			src.status = status;
			src.updatedAt = now;
			if (src.extraction) src.extraction.hold = true;
		}
		return renderSource(this.engine.store, src);
	}

	// ---------- analytics data ----------

	addObservation(o: ObservationInput): void {
		const user = this.userOrApi(o.userEmail);
		const at = typeof o.at === 'number' ? o.at : Date.parse(o.at);
		if (Number.isNaN(at)) throw new Error(`addObservation: invalid at ${String(o.at)}`);
		this.engine.store.data.observations.push({
			userId: user.id,
			skillId: o.skillId,
			score: o.score,
			at,
			kind: o.kind ?? 'call',
		});
	}

	// ---------- practice ----------

	/** A roleplay session, by anyone who ever was in the workspace (former members and system users too). */
	addSession(input: SessionInput): SessionListItem {
		const { store } = this.engine;
		const user = store.userByEmail(input.userEmail);
		if (!user) throw new Error(`unknown user ${input.userEmail}`);
		const scenario = store.data.scenarios.find(
			(s) => s.id === input.scenario || s.slug === input.scenario,
		);
		if (!scenario) throw new Error(`unknown scenario ${input.scenario}`);
		const now = this.engine.now();
		const rec = addSession(
			store,
			{
				userId: user.id,
				scenarioId: scenario.id,
				score: input.score ?? null,
				createdAt: now - Math.max(0, input.lateByMs ?? 0),
			},
			now,
		);
		return renderSession(store, rec);
	}

	/** Grades an unscored session; the member's open assignments on its scenario move with it. */
	scoreSession(sessionId: string, score: number): SessionListItem {
		const { store } = this.engine;
		const rec = store.data.sessions.find((s) => s.id === sessionId);
		if (!rec) throw new Error(`unknown session ${sessionId}`);
		scoreSession(store, rec, score, this.engine.now());
		return renderSession(store, rec);
	}

	/** An assignment given by an admin or a program (see assignmentInputSchema). */
	addAssignment(input: AssignmentInput): Assignment {
		const { store } = this.engine;
		const a = assignmentInputSchema.parse(input);
		const user = store.userByEmail(a.userEmail);
		if (!user) throw new Error(`unknown user ${a.userEmail}`);
		const scenario = store.scenarioByIdOrSlug(a.scenario);
		if (!scenario) throw new Error(`unknown scenario ${a.scenario}`);
		if (a.programId !== null && !store.data.programs.some((p) => p.id === a.programId))
			throw new Error(`unknown program ${a.programId}`);
		if (a.attemptMax !== null && a.attemptMax < a.attemptMin)
			throw new Error('attemptMax must be at least attemptMin');
		const due =
			a.dueDate === undefined || a.dueDate === null
				? null
				: typeof a.dueDate === 'number'
					? a.dueDate
					: Date.parse(a.dueDate);
		if (due !== null && Number.isNaN(due)) throw new Error(`invalid dueDate ${String(a.dueDate)}`);
		const rec = addAssignment(store, {
			id: store.rng.shortId(),
			userId: user.id,
			scenarioId: scenario.id,
			status: a.status,
			dueDate: due === null ? null : store.stamp(due),
			bestScore: null,
			bestRank: null,
			attemptCount: 0,
			attemptMin: a.attemptMin,
			attemptMax: a.attemptMax,
			rankMin: a.rankMin,
			programId: a.programId,
			createdAt: store.stamp(this.engine.now() - a.earlierByMs),
			assignerId: store.apiUser().id,
			customMessage: null,
		});
		refreshPastDue(store, this.engine.now());
		return renderAssignment(store, rec);
	}

	/**
	 * An admin sets an assignment's status, with no session (the spec shows no transitions: any status
	 * may follow any other).
	 */
	setAssignmentStatus(assignmentId: string, status: AssignmentStatus): Assignment {
		const { store } = this.engine;
		const a = store.data.assignments.find((x) => x.id === assignmentId);
		if (!a) throw new Error(`unknown assignment ${assignmentId}`);
		setAssignmentStatus(store, a, assignmentStatusSchema.parse(status), this.engine.now());
		return renderAssignment(store, a);
	}

	/** Every assignment status change since the seed (creations included), oldest first. */
	assignmentLog(): AssignmentChange[] {
		refreshPastDue(this.engine.store, this.engine.now());
		return this.engine.store.assignmentLog.map((c) => ({ ...c }));
	}

	/** Seeded random sessions (see PracticeMix); returns their ids. */
	simulatePractice(mix: PracticeMix): string[] {
		return simulatePractice(this.engine.store, mix, this.engine.now()).map((s) => s.id);
	}

	/** Scores waiting sessions (all, or the oldest `count`) with seeded scores; returns their ids. */
	scorePending(count?: number): string[] {
		return scorePending(this.engine.store, this.engine.now(), count).map((s) => s.id);
	}

	/** Grows the workspace to a realistic size (sessions over the past year, assignments). */
	fillPractice(size: PracticeSize): void {
		fillPractice(this.engine.store, size, this.engine.now());
	}

	/** The member leaves the workspace; their sessions and assignments stay in the history. */
	removeMember(email: string): void {
		const user = this.engine.store.userByEmail(email);
		if (!user) throw new Error(`unknown user ${email}`);
		user.member = false;
	}

	// ---------- whole state ----------

	/** Notable ids of this instance's seed. */
	fixtures(): Fixtures {
		return fixturesOf(this.engine.store);
	}

	/** Back to the seed and the start options: data, requests, callbacks, faults, timings. */
	reset(): void {
		this.engine.reset();
	}
}

type Json = Record<string, unknown>;
const num = (v: unknown, name: string): number => {
	if (typeof v !== 'number') throw new ApiError(400, 'invalid_request', `${name} must be a number`);
	return v;
};
const str = (v: unknown, name: string): string => {
	if (typeof v !== 'string') throw new ApiError(400, 'invalid_request', `${name} must be a string`);
	return v;
};

function oneOf<T extends string>(v: unknown, name: string, allowed: readonly T[]): T {
	if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
		throw new ApiError(400, 'invalid_request', `${name} must be one of ${allowed.join(', ')}`);
	}
	return v as T;
}

/** HTTP surface: POST /__control/<method> with a JSON object body, GET for the read-only ones. */
export function controlHttp(control: Control) {
	const actions: Record<string, (b: Json) => unknown> = {
		requests: (b) => control.requests(b as RequestFilter),
		clearRequests: () => control.clearRequests(),
		failNext: (b) =>
			control.failNext(num(b.count ?? 1, 'count'), (b.status as 500 | 503 | undefined) ?? 500),
		dropNext: (b) => control.dropNext(num(b.count ?? 1, 'count')),
		setLatency: (b) => control.setLatency(num(b.ms, 'ms')),
		setRateLimits: (b) =>
			control.setRateLimits(
				(b.limits as Partial<RateLimits> | boolean | null | undefined) ??
					(b.enabled as boolean | undefined) ??
					true,
			),
		rateLimitUsage: () => control.rateLimitUsage(),
		setWorkspaceActive: (b) => control.setWorkspaceActive(b.active !== false),
		setTimestampPrecision: (b) =>
			control.setTimestampPrecision(
				oneOf(b.precision, 'precision', ['second', 'millisecond'] as const),
			),
		setCallbackStatuses: (b) => {
			const list = Array.isArray(b.statuses) ? b.statuses : [];
			control.setCallbackStatuses(
				list.map((s) => oneOf(s, 'statuses[]', ['completed', 'failed', 'cancelled'] as const)),
			);
		},
		setJobTimings: (b) => control.setJobTimings(b as unknown as JobTimings),
		setSourceTimings: (b) => control.setSourceTimings(b as unknown as SourceTimings),
		tick: () => control.tick(),
		advance: (b) => control.advance(num(b.ms, 'ms')),
		setTime: (b) => control.setTime(b.date as string | number),
		now: () => control.now(),
		callbacks: () => control.callbacks(),
		waitForCallbacks: () => control.waitForCallbacks(),
		redeliverCallback: (b) => control.redeliverCallback(str(b.jobId, 'jobId')),
		getJob: (b) => control.getJob(str(b.jobId, 'jobId')),
		finishJob: (b) => control.finishJob(str(b.jobId, 'jobId'), b.failCode as string | undefined),
		setJobState: (b) =>
			control.setJobState(
				str(b.jobId, 'jobId'),
				str(b.status, 'status') as JobStatus,
				b.failCode as string | undefined,
			),
		releaseJob: (b) => control.releaseJob(str(b.jobId, 'jobId')),
		createPage: (b) => control.createPage(b as unknown as PageInput),
		updatePage: (b) =>
			control.updatePage(
				str(b.pageId, 'pageId'),
				(b.patch ?? {}) as PagePatch,
				b.asEmail as string | undefined,
				b.ai === true,
			),
		publishPage: (b) =>
			control.publishPage(str(b.pageId, 'pageId'), b.asEmail as string | undefined, b.ai === true),
		archivePage: (b) => control.archivePage(str(b.pageId, 'pageId')),
		createSource: (b) => control.createSource(b as unknown as { url: string }),
		setSourceStatus: (b) =>
			control.setSourceStatus(str(b.sourceId, 'sourceId'), str(b.status, 'status') as SourceStatus),
		addObservation: (b) => control.addObservation(b as unknown as ObservationInput),
		addSession: (b) => control.addSession(b as unknown as SessionInput),
		scoreSession: (b) => control.scoreSession(str(b.sessionId, 'sessionId'), num(b.score, 'score')),
		simulatePractice: (b) => control.simulatePractice(b as unknown as PracticeMix),
		scorePending: (b) =>
			control.scorePending(b.count === undefined ? undefined : num(b.count, 'count')),
		fillPractice: (b) => control.fillPractice(b as unknown as PracticeSize),
		removeMember: (b) => control.removeMember(str(b.email, 'email')),
		addAssignment: (b) => control.addAssignment(b as AssignmentInput),
		setAssignmentStatus: (b) =>
			control.setAssignmentStatus(
				str(b.assignmentId, 'assignmentId'),
				str(b.status, 'status') as AssignmentStatus,
			),
		assignmentLog: () => control.assignmentLog(),
		fixtures: () => control.fixtures(),
		reset: () => control.reset(),
	};
	const readOnly = new Set([
		'requests',
		'callbacks',
		'now',
		'fixtures',
		'rateLimitUsage',
		'assignmentLog',
	]);

	return async (
		method: string,
		action: string,
		body: unknown,
		query: Record<string, string>,
	): Promise<ApiResponse> => {
		const fn = actions[action];
		if (!fn)
			throw new ApiError(
				404,
				'not_found',
				`Unknown control action "${action}"; known: ${Object.keys(actions).join(', ')}`,
			);
		if (method === 'GET' && !readOnly.has(action))
			throw new ApiError(405, 'invalid_request', `Use POST for ${action}`);
		if (method !== 'GET' && method !== 'POST')
			throw new ApiError(405, 'invalid_request', `Use POST for ${action}`);
		const args: Json = method === 'GET' ? { ...query } : ((body ?? {}) as Json);
		try {
			const result = await fn(args);
			return { status: 200, body: { ok: true, result: result ?? null } };
		} catch (err) {
			if (err instanceof ApiError) throw err;
			throw new ApiError(400, 'invalid_request', err instanceof Error ? err.message : String(err));
		}
	};
}
