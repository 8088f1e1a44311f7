/** Knowledge Hub pages (spec 3.3, 4.6): list, create, get, update (PATCH/PUT), archive, versions. */
import type { Engine } from '../engine';
import { invalidValue, notFound, type Handler, type Router } from '../http';
import {
	csvEnum,
	dateParam,
	includes,
	objectBody,
	optEnum,
	optString,
	pageParams,
	paginate,
	reqString,
	sortParam,
	sortInput,
	uuidParam,
} from '../query';
import { renderPage, renderPageDetail, renderPageVersion } from '../state/render';
import { archivePage, createPage, updatePage } from '../state/pages';
import type { Store } from '../state/store';
import type { PageRec } from '../state/types';
import { idList } from './kb-common';

const SORT_KEYS = ['updated_at', 'created_at', 'title'] as const;

function pageOr404(store: Store, id: string): PageRec {
	const page = store.page(id);
	if (!page) throw notFound(`Page not found: ${id}`);
	return page;
}

/** Newest first for dates (latest change first on equal timestamps), A-Z for title: fixed, per spec 4.6. */
function comparator(store: Store, field: (typeof SORT_KEYS)[number]) {
	return (a: PageRec, b: PageRec): number => {
		if (field === 'title') return a.title.localeCompare(b.title) || a.id.localeCompare(b.id);
		const key = field === 'updated_at' ? 'updatedAt' : 'createdAt';
		// On the stored (possibly whole-second) value, so rows sharing one timestamp order by change.
		return store.stamp(b[key]) - store.stamp(a[key]) || b.seq - a.seq;
	};
}

function statusField(body: Record<string, unknown>): 'draft' | 'published' | undefined {
	if (body.status === 'archived')
		throw invalidValue('status cannot be set to archived; archive a page with DELETE');
	return optEnum(body, 'status', ['draft', 'published'] as const);
}

export function registerPages(router: Router, engine: Engine): void {
	const { store } = engine;

	router.get('/knowledge-hub/pages', ({ query }) => {
		const p = pageParams(query);
		const statuses = csvEnum(query, 'status', ['draft', 'published', 'archived'] as const);
		const after = dateParam(query, 'updated_after');
		const before = dateParam(query, 'updated_before');
		// `sort` in both documents, each value with its fixed order (dates newest first, title A-Z).
		const { raw, name } = sortInput(query, ['sort'], ['sorting']);
		const { field } = sortParam(raw, name, SORT_KEYS, 'updated_at', false);
		const q = query.query?.toLowerCase();
		const folderId = uuidParam(query, 'folder_id');
		const skillId = uuidParam(query, 'skill_id');
		const rows = store.data.pages
			.filter(
				(pg) =>
					(statuses ? statuses.includes(pg.status) : pg.status !== 'archived') &&
					(!folderId || pg.folderIds.includes(folderId)) &&
					(!query.owner_id || pg.ownerId === query.owner_id) &&
					(!skillId || pg.skillIds.includes(skillId)) &&
					(!q || pg.title.toLowerCase().includes(q)) &&
					(after === undefined || store.stamp(pg.updatedAt) >= after) &&
					(before === undefined || store.stamp(pg.updatedAt) <= before),
			)
			.sort(comparator(store, field));
		const env = paginate(rows, p);
		return { status: 200, body: { ...env, data: env.data.map((pg) => renderPage(store, pg)) } };
	});

	router.post('/knowledge-hub/pages', ({ body: raw }) => {
		const body = objectBody(raw);
		const title = reqString(body, 'title');
		const content = optString(body, 'content');
		const status = statusField(body);
		const visibility = optEnum(body, 'visibility', ['private', 'workspace'] as const);
		const folderIds = idList(store, body, 'folder_ids', 'folder');
		const sourceIds = idList(store, body, 'source_ids', 'source');
		const skillIds = idList(store, body, 'skill_ids', 'skill');
		const actor = store.apiUser();
		const page = createPage(
			store,
			{ title, content, status, visibility, folderIds, sourceIds, skillIds, ownerId: actor.id },
			actor.id,
			engine.now(),
		);
		return { status: 201, body: renderPageDetail(store, page, true) };
	});

	router.get('/knowledge-hub/pages/:id', ({ params, query }) => {
		const inc = includes(query, ['draft']);
		return {
			status: 200,
			body: renderPageDetail(store, pageOr404(store, params.id), inc.has('draft')),
		};
	});

	const update: Handler = ({ params, body: raw }) => {
		const page = pageOr404(store, params.id);
		const body = objectBody(raw);
		const title = optString(body, 'title');
		if (title !== undefined && title.trim() === '') throw invalidValue('title must not be empty');
		const patch = {
			title,
			content: optString(body, 'content'),
			status: statusField(body),
			folderIds: idList(store, body, 'folder_ids', 'folder'),
			sourceIds: idList(store, body, 'source_ids', 'source'),
			skillIds: idList(store, body, 'skill_ids', 'skill'),
		};
		updatePage(store, page, patch, store.apiUser().id, engine.now());
		return { status: 200, body: renderPageDetail(store, page, true) };
	};
	router.patch('/knowledge-hub/pages/:id', update);
	router.put('/knowledge-hub/pages/:id', update);

	// Archiving is idempotent: an archived page stays readable by id, so a repeat DELETE answers the same.
	router.delete('/knowledge-hub/pages/:id', ({ params }) => {
		const page = pageOr404(store, params.id);
		if (page.status !== 'archived') archivePage(store, page, engine.now());
		return { status: 200, body: { id: page.id, deleted: true } };
	});

	router.get('/knowledge-hub/pages/:id/versions', ({ params, query }) => {
		const page = pageOr404(store, params.id);
		const p = pageParams(query);
		const rows = [...page.versions].reverse();
		const env = paginate(rows, p);
		return {
			status: 200,
			body: { ...env, data: env.data.map((v) => renderPageVersion(store, v)) },
		};
	});
}
