/** Knowledge Hub page life cycle (spec 3.3): drafts, publishing, archiving, versions. */
import { publishedVersion } from './render';
import type { Store } from './store';
import type { KbVisibility, PageChange, PageRec } from './types';

export interface NewPage {
	title: string;
	content?: string;
	status?: 'draft' | 'published';
	visibility?: KbVisibility;
	folderIds?: string[];
	sourceIds?: string[];
	skillIds?: string[];
	ownerId: string;
	cover?: string;
}

export interface PagePatch {
	title?: string;
	content?: string;
	status?: 'draft' | 'published';
	folderIds?: string[];
	sourceIds?: string[];
	skillIds?: string[];
}

function touch(store: Store, page: PageRec, now: number, change: PageChange['change']): void {
	page.updatedAt = now;
	page.seq = store.nextSeq();
	logChange(store, page, now, change);
}

function logChange(store: Store, page: PageRec, now: number, change: PageChange['change']): void {
	store.pageLog.push({
		id: page.id,
		change,
		at: now,
		version: publishedVersion(page)?.version ?? null,
	});
}

export function createPage(
	store: Store,
	input: NewPage,
	actorId: string | null,
	now: number,
): PageRec {
	const page: PageRec = {
		id: store.rng.uuid(),
		title: input.title,
		status: 'draft',
		visibility: input.visibility ?? 'workspace',
		ownerId: input.ownerId,
		folderIds: input.folderIds ?? [],
		skillIds: input.skillIds ?? [],
		sourceIds: input.sourceIds ?? [],
		cover: input.cover ?? '',
		createdAt: now,
		updatedAt: now,
		publishedAt: null,
		draft: { title: input.title, content: input.content ?? null },
		versions: [],
		seq: store.nextSeq(),
	};
	store.data.pages.push(page);
	if (input.status === 'published') publish(page, actorId, now, 'created');
	logChange(store, page, now, 'created');
	return page;
}

/** Publishes the draft (or re-publishes the current text) as a new version. */
function publish(
	page: PageRec,
	actorId: string | null,
	now: number,
	changeType: 'created' | 'manual_edit' | 'ai_generation',
): void {
	const last = publishedVersion(page);
	const title = page.draft?.title ?? page.title;
	const content = page.draft ? (page.draft.content ?? '') : (last?.content ?? '');
	page.versions.push({
		version: (last?.version ?? 0) + 1,
		title,
		content,
		changeType,
		createdById: changeType === 'ai_generation' ? null : actorId,
		createdAt: now,
		updatedAt: now,
	});
	page.title = title;
	page.status = 'published';
	page.publishedAt = now;
	page.draft = null;
}

/** Applies a PATCH/PUT body. Omitted fields stay as they are. */
export function updatePage(
	store: Store,
	page: PageRec,
	patch: PagePatch,
	actorId: string | null,
	now: number,
	changeType: 'manual_edit' | 'ai_generation' = 'manual_edit',
): void {
	let changed = false;
	if (patch.title !== undefined) {
		page.title = patch.title;
		page.draft = {
			title: patch.title,
			content: page.draft ? page.draft.content : (publishedVersion(page)?.content ?? null),
		};
		changed = true;
	}
	if (patch.content !== undefined) {
		page.draft = { title: page.draft?.title ?? page.title, content: patch.content };
		changed = true;
	}
	if (patch.folderIds) page.folderIds = [...patch.folderIds];
	if (patch.sourceIds) page.sourceIds = [...patch.sourceIds];
	if (patch.skillIds) page.skillIds = [...patch.skillIds];
	changed ||= !!(patch.folderIds || patch.sourceIds || patch.skillIds);
	const published = patch.status === 'published';
	if (published) {
		publish(page, actorId, now, changeType);
		changed = true;
	} else if (patch.status === 'draft') {
		page.status = 'draft';
		changed = true;
	}
	if (changed) touch(store, page, now, published ? 'published' : 'updated');
}

export function archivePage(store: Store, page: PageRec, now: number): void {
	page.status = 'archived';
	touch(store, page, now, 'archived');
}
