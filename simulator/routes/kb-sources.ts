/** Knowledge Hub sources (spec 3.2, 4.5): URL ingest with de-duplication, list, get, archive. */
import type { Engine } from '../engine';
import { invalidValue, missingField, notFound, type Router } from '../http';
import {
	csvEnum,
	includes,
	isHttpUrl,
	objectBody,
	optString,
	pageParams,
	paginate,
	reqString,
	uuidParam,
} from '../query';
import { renderSource } from '../state/render';
import { createSource, findByUrl } from '../state/sources';
import type { Store } from '../state/store';
import type { SourceRec } from '../state/types';
import { idList } from './kb-common';

const TYPES = ['upload', 'url', 'notion', 'google_drive', 'guru', 'page', 'integration'] as const;
const STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;

/** Archived sources are gone: 404, like an id that never existed. */
export function liveSourceOr404(store: Store, id: string): SourceRec {
	const src = store.source(id);
	if (!src || src.archived) throw notFound(`Source not found: ${id}`);
	return src;
}

export function registerSources(router: Router, engine: Engine): void {
	const { store } = engine;

	router.get('/knowledge-hub/sources', ({ query }) => {
		const p = pageParams(query);
		const types = csvEnum(query, 'type', TYPES);
		const statuses = csvEnum(query, 'status', STATUSES);
		const folderId = uuidParam(query, 'folder_id');
		const q = query.query?.toLowerCase();
		const pageId = uuidParam(query, 'page_id');
		const attached =
			pageId !== undefined ? new Set(store.page(pageId)?.sourceIds ?? []) : undefined;
		const rows = store.data.sources
			.filter(
				(s) =>
					!s.archived &&
					(!types || types.includes(s.sourceType)) &&
					(!statuses || statuses.includes(s.status)) &&
					(!folderId || s.folderIds.includes(folderId)) &&
					(!q || s.title.toLowerCase().includes(q)) &&
					(!attached || attached.has(s.id)),
			)
			.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
		const env = paginate(rows, p);
		return { status: 200, body: { ...env, data: env.data.map((s) => renderSource(store, s)) } };
	});

	router.post('/knowledge-hub/sources', ({ body: raw }) => {
		const body = objectBody(raw);
		const type = reqString(body, 'type');
		if (type !== 'url')
			throw invalidValue(
				`type "${type}" is not supported; only url sources can be created through the API`,
			);
		const title = reqString(body, 'title');
		const url = optString(body, 'url');
		if (url === undefined || url.trim() === '') throw missingField('url');
		if (!isHttpUrl(url)) throw invalidValue(`url must be an http(s) URL, got "${url}"`);
		const cover = optString(body, 'cover') ?? '';
		const folderIds = idList(store, body, 'folder_ids', 'folder') ?? [];
		const existing = findByUrl(store, url);
		if (existing) return { status: 200, body: renderSource(store, existing) };
		const src = createSource(
			store,
			{ title, url, cover, folderIds, createdById: store.apiUser().id },
			engine.now(),
			engine.sourceTimings,
		);
		return { status: 201, body: renderSource(store, src) };
	});

	router.get('/knowledge-hub/sources/:id', ({ params, query }) => {
		const inc = includes(query, ['content']);
		return {
			status: 200,
			body: renderSource(store, liveSourceOr404(store, params.id), inc.has('content')),
		};
	});

	router.delete('/knowledge-hub/sources/:id', ({ params }) => {
		const src = liveSourceOr404(store, params.id);
		src.archived = true;
		src.updatedAt = engine.now();
		return { status: 200, body: { id: src.id, deleted: true } };
	});
}
