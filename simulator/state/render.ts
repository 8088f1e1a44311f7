/** Turns internal records into the API shapes of schemas.ts. */
import { iso } from '../clock';
import type {
	Assignment,
	Collection,
	Context,
	Folder,
	FolderRef,
	Group,
	Member,
	Page,
	PageDetail,
	PageVersion,
	Scenario,
	ScenarioJob,
	SessionListItem,
	Skill,
	Source,
	UserRef,
	Workspace,
} from '../schemas';
import { rankFor } from './seed';
import type { Store } from './store';
import type {
	AssignmentRec,
	CollectionRec,
	ContextRec,
	FolderRec,
	GroupRec,
	JobRec,
	PageRec,
	PageVersionRec,
	ScenarioRec,
	SessionRec,
	SkillRec,
	SourceRec,
	UserRec,
} from './types';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
/** A stored time as the service shows it (see Store.stamp: whole seconds by default). */
const at = (store: Store, ms: number): string => iso(store.stamp(ms));
const atOrNull = (store: Store, ms: number | null): string | null =>
	ms === null ? null : at(store, ms);

export function userRef(u: UserRec): UserRef {
	return { id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name };
}

function userRefById(store: Store, id: string | null): UserRef | null {
	if (id === null) return null;
	const user = store.userById(id);
	return user ? userRef(user) : null;
}

function requiredUser(store: Store, id: string): UserRef {
	const ref = userRefById(store, id);
	if (!ref) throw new Error(`render: unknown user ${id}`);
	return ref;
}

export function workspaceUrl(store: Store): string {
	return `https://${store.data.workspace.urlSlug}.app.exec.com`;
}

export function renderWorkspace(store: Store): Workspace {
	const w = store.data.workspace;
	return { id: w.id, name: w.name, url_slug: w.urlSlug, created_at: at(store, w.createdAt) };
}

/** Member id is the user's id, consistent with user ids everywhere else. */
export function renderMember(u: UserRec): Member {
	return { id: u.id, user: userRef(u), role: u.role, created_at: iso(u.joinedAt) };
}

export function renderGroup(g: GroupRec): Group {
	return { id: g.id, name: g.name, created_at: iso(g.createdAt) };
}

export function renderScenario(store: Store, s: ScenarioRec, withSkills: boolean): Scenario {
	const out: Scenario = {
		id: s.id,
		name: s.name,
		description: s.description,
		slug: s.slug,
		url: `${workspaceUrl(store)}/scenarios/${s.slug}`,
		difficulty: s.difficulty,
		context: s.context,
		objective: s.objective,
		language: s.language,
		visibility: s.visibility,
		owner: userRefById(store, s.ownerId),
		created_at: at(store, s.createdAt),
		updated_at: at(store, s.updatedAt),
	};
	if (withSkills) {
		out.skills = s.skillIds.flatMap((id) => {
			const sk = store.skill(id);
			return sk ? [{ id: sk.id, name: sk.name, slug: sk.slug }] : [];
		});
	}
	return out;
}

export function scenarioRef(s: ScenarioRec): { id: string; name: string; slug: string } {
	return { id: s.id, name: s.name, slug: s.slug };
}

export function renderAssignment(store: Store, a: AssignmentRec): Assignment {
	const scenario = store.scenarioById(a.scenarioId);
	if (!scenario) throw new Error(`render: unknown scenario ${a.scenarioId}`);
	const program = a.programId ? store.data.programs.find((p) => p.id === a.programId) : undefined;
	return {
		id: a.id,
		user: requiredUser(store, a.userId),
		scenario: scenarioRef(scenario),
		status: a.status,
		due_date: isoOrNull(a.dueDate),
		best_score: a.bestScore,
		best_rank: a.bestRank,
		attempt_count: a.attemptCount,
		attempt_min: a.attemptMin,
		attempt_max: a.attemptMax,
		rank_min: a.rankMin,
		program: program ? { id: program.id, name: program.name } : null,
		created_at: at(store, a.createdAt),
	};
}

export function renderSession(store: Store, s: SessionRec): SessionListItem {
	const scenario = store.scenarioById(s.scenarioId);
	if (!scenario) throw new Error(`render: unknown scenario ${s.scenarioId}`);
	return {
		id: s.id,
		user: requiredUser(store, s.userId),
		scenario: scenarioRef(scenario),
		score: s.score,
		rank: s.score === null ? null : rankFor(s.score),
		duration_seconds: s.durationSeconds,
		is_valid_attempt: s.valid,
		created_at: at(store, s.createdAt),
	};
}

export function renderSkill(s: SkillRec): Skill {
	return {
		id: s.id,
		name: s.name,
		slug: s.slug,
		description: s.description,
		created_at: iso(s.createdAt),
	};
}

export function renderCollection(store: Store, c: CollectionRec): Collection {
	const count = store.data.scenarios.filter(
		(s) => !s.archived && s.collectionIds.includes(c.id),
	).length;
	return {
		id: c.id,
		name: c.name,
		slug: c.slug,
		description: c.description,
		scenario_count: count,
		created_at: at(store, c.createdAt),
	};
}

export function renderContext(c: ContextRec): Context {
	return { id: c.id, title: c.title, created_at: iso(c.createdAt) };
}

export function renderFolder(store: Store, f: FolderRec): Folder {
	return {
		id: f.id,
		name: f.name,
		emoji: f.emoji,
		parent: f.parentId,
		visibility: f.visibility,
		item_count: store.data.pages.filter(
			(p) => p.status !== 'archived' && p.folderIds.includes(f.id),
		).length,
		subfolder_count: store.data.folders.filter((c) => c.parentId === f.id).length,
		created_at: at(store, f.createdAt),
		updated_at: at(store, f.updatedAt),
	};
}

function folderRefs(store: Store, ids: string[]): FolderRef[] {
	return ids.flatMap((id) => {
		const f = store.folder(id);
		return f ? [{ id: f.id, name: f.name, emoji: f.emoji }] : [];
	});
}

export function renderSource(store: Store, s: SourceRec, withContent = false): Source {
	const out: Source = {
		id: s.id,
		title: s.title,
		source_type: s.sourceType,
		status: s.status,
		content_format: s.contentFormat,
		token_count: s.tokenCount,
		has_images: s.hasImages,
		external_url: s.externalUrl,
		summary: s.summary,
		cover: s.cover,
		folders: folderRefs(store, s.folderIds),
		created_by: userRefById(store, s.createdById),
		created_at: at(store, s.createdAt),
		updated_at: at(store, s.updatedAt),
		processed_at: atOrNull(store, s.processedAt),
	};
	if (withContent) out.content = s.status === 'ready' ? s.content : null;
	return out;
}

export function publishedVersion(p: PageRec): PageVersionRec | undefined {
	return p.versions[p.versions.length - 1];
}

/** Archived sources drop out of the pages they were attached to. */
function liveSourceIds(store: Store, p: PageRec): string[] {
	return p.sourceIds.filter((id) => store.source(id)?.archived === false);
}

export function renderPage(store: Store, p: PageRec): Page {
	const published = publishedVersion(p);
	return {
		id: p.id,
		title: p.title,
		status: p.status,
		visibility: p.visibility,
		owner: userRefById(store, p.ownerId),
		folders: folderRefs(store, p.folderIds),
		skills: p.skillIds.flatMap((id) => {
			const sk = store.skill(id);
			return sk ? [{ id: sk.id, name: sk.name }] : [];
		}),
		source_count: liveSourceIds(store, p).length,
		version: published ? published.version : null,
		cover: p.cover,
		published_at: atOrNull(store, p.publishedAt),
		created_at: at(store, p.createdAt),
		updated_at: at(store, p.updatedAt),
	};
}

/** The draft a reader sees: pending edits, or the published text when there are none. */
export function currentDraft(p: PageRec): { title: string; content: string | null } {
	if (p.draft) return { ...p.draft };
	const published = publishedVersion(p);
	return { title: p.title, content: published ? published.content : null };
}

export function renderPageDetail(store: Store, p: PageRec, withDraft: boolean): PageDetail {
	const published = publishedVersion(p);
	const out: PageDetail = {
		...renderPage(store, p),
		content: published ? published.content : null,
		sources: liveSourceIds(store, p).flatMap((id) => {
			const s = store.source(id);
			return s ? [renderSource(store, s)] : [];
		}),
	};
	if (withDraft) out.draft = currentDraft(p);
	return out;
}

export function renderPageVersion(store: Store, v: PageVersionRec): PageVersion {
	return {
		version: v.version,
		title: v.title,
		change_type: v.changeType,
		created_by: userRefById(store, v.createdById),
		created_at: at(store, v.createdAt),
		updated_at: at(store, v.updatedAt),
	};
}

export function renderJob(store: Store, j: JobRec): ScenarioJob {
	const scenario =
		j.status === 'completed' && j.scenarioId ? store.scenarioById(j.scenarioId) : undefined;
	return {
		id: j.id,
		status: j.status,
		scenario: scenario
			? {
					id: scenario.id,
					name: scenario.name,
					slug: scenario.slug,
					url: `${workspaceUrl(store)}/scenarios/${scenario.slug}`,
				}
			: null,
		error: j.status === 'failed' ? j.error : null,
		created_at: at(store, j.createdAt),
		started_at: atOrNull(store, j.startedAt),
		completed_at: atOrNull(store, j.completedAt),
		duration_seconds:
			j.completedAt !== null && j.startedAt !== null
				? Math.round((j.completedAt - j.startedAt) / 100) / 10
				: null,
	};
}
