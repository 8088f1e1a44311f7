/** Internal records held by the store. Times are epoch milliseconds; the routes render them. */
import type {
	AssignmentStatus,
	JobStatus,
	PageStatus,
	PermissionLevel,
	Rank,
	SourceStatus,
	SourceType,
	UserRef,
} from '../schemas';

export type Role = 'admin' | 'staff' | 'member';
export type KbVisibility = 'private' | 'workspace' | 'global';

export interface UserRec extends UserRef {
	/** False for people who left the workspace but still own history (sessions). */
	member: boolean;
	role: Role;
	joinedAt: number;
	groupIds: string[];
}

export interface GroupRec {
	id: string;
	name: string;
	createdAt: number;
}

export interface SkillRec {
	id: string;
	name: string;
	slug: string;
	description: string;
	createdAt: number;
}

export interface CollectionRec {
	id: string;
	name: string;
	slug: string;
	description: string | null;
	createdAt: number;
}

export interface ProgramRec {
	id: string;
	name: string;
}

export interface ScenarioRec {
	id: string;
	name: string;
	description: string | null;
	slug: string;
	difficulty: 'easy' | 'medium' | 'hard' | 'very_hard' | 'custom';
	context: string | null;
	objective: string | null;
	language: string;
	visibility: 'private' | 'workspace';
	ownerId: string | null;
	createdAt: number;
	updatedAt: number;
	skillIds: string[];
	collectionIds: string[];
	archived: boolean;
	/** user id -> granted level */
	userShares: Record<string, PermissionLevel>;
	/** group id -> granted level */
	groupShares: Record<string, PermissionLevel>;
}

export interface AssignmentRec {
	id: string;
	userId: string;
	scenarioId: string;
	status: AssignmentStatus;
	dueDate: number | null;
	bestScore: number | null;
	bestRank: Rank | null;
	attemptCount: number;
	attemptMin: number | null;
	attemptMax: number | null;
	rankMin: Rank | null;
	programId: string | null;
	createdAt: number;
	assignerId: string | null;
	customMessage: string | null;
}

/** One status change of an assignment (from null: created), stamped with when it happened. */
export interface AssignmentChange {
	id: string;
	from: AssignmentStatus | null;
	to: AssignmentStatus;
	at: number;
}

/** A session's grade, stamped with when it was given (the bench's oracle: what was scored, when). */
export interface ScoreChange {
	id: string;
	score: number;
	at: number;
}

/** One change of a page (the bench's oracle: what changed, when; `version` the published one after it). */
export interface PageChange {
	id: string;
	change: 'created' | 'updated' | 'published' | 'archived';
	at: number;
	version: number | null;
}

export interface SessionRec {
	id: string;
	userId: string;
	scenarioId: string;
	score: number | null;
	durationSeconds: number | null;
	valid: boolean;
	programId: string | null;
	createdAt: number;
	/** Listed unscored and waiting for its grade (scorePending grades it); not set for abandoned ones. */
	pendingScore?: boolean;
}

export interface ObservationRec {
	userId: string;
	skillId: string;
	score: number;
	at: number;
	kind: 'session' | 'call';
}

export interface ContextRec {
	id: string;
	title: string;
	createdAt: number;
}

export interface FolderRec {
	id: string;
	name: string;
	emoji: string | null;
	parentId: string | null;
	visibility: KbVisibility;
	createdAt: number;
	updatedAt: number;
}

export interface SourceRec {
	id: string;
	title: string;
	sourceType: SourceType;
	status: SourceStatus;
	contentFormat: 'markdown' | 'plain_text' | 'image' | 'video' | null;
	tokenCount: number | null;
	hasImages: boolean;
	externalUrl: string | null;
	summary: string | null;
	cover: string;
	folderIds: string[];
	createdById: string | null;
	createdAt: number;
	updatedAt: number;
	processedAt: number | null;
	content: string | null;
	archived: boolean;
	/** Extraction schedule for sources created at runtime; undefined = settled. */
	extraction?: { pendingUntil: number; readyAt: number; fail: boolean; hold: boolean };
}

export interface PageVersionRec {
	version: number;
	title: string;
	content: string;
	changeType: 'created' | 'ai_generation' | 'manual_edit' | 'restore' | 'clone';
	createdById: string | null;
	createdAt: number;
	updatedAt: number;
}

export interface PageRec {
	id: string;
	title: string;
	status: PageStatus;
	visibility: KbVisibility;
	ownerId: string | null;
	folderIds: string[];
	skillIds: string[];
	sourceIds: string[];
	cover: string;
	createdAt: number;
	updatedAt: number;
	publishedAt: number | null;
	/** Unpublished edits; null when the draft equals the published version. */
	draft: { title: string; content: string | null } | null;
	/** Published versions, oldest first. */
	versions: PageVersionRec[];
	/** Bumped on every change; breaks ties between equal timestamps (latest change first). */
	seq: number;
}

export interface JobTimings {
	queuedMs: number;
	processingMs: number;
	/** Keep new jobs (and sources) where they are until the control moves them. */
	hold?: boolean;
}

export interface JobRec {
	id: string;
	status: JobStatus;
	userId: string;
	prompt: string;
	context: string | null;
	remixOfId: string | null;
	requestId: string | null;
	callbackUrl: string | null;
	callbackHeaders: Record<string, string>;
	createdAt: number;
	startedAt: number | null;
	completedAt: number | null;
	scenarioId: string | null;
	error: { code: string; message: string } | null;
	timings: Required<JobTimings>;
	/** When the current state's timer started (created_at, then started_at; moved by releaseJob). */
	anchor: number;
	/** Failure planned from a prompt marker, applied when processing ends. */
	plannedFailure: { code: string; message: string } | null;
}

export interface StudioSessionRec {
	id: string;
	userId: string;
	prompt: string;
	requestId: string | null;
	createdAt: number;
}

export interface WorkspaceRec {
	id: string;
	name: string;
	urlSlug: string;
	createdAt: number;
	active: boolean;
}
