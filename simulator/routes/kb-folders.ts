/** Knowledge Hub folders: list (parent_id, query) and get. */
import type { Engine } from '../engine';
import { notFound, type Router } from '../http';
import { pageParams, paginate, uuidParam } from '../query';
import { renderFolder } from '../state/render';

export function registerFolders(router: Router, engine: Engine): void {
	const { store } = engine;

	router.get('/knowledge-hub/folders', ({ query }) => {
		const p = pageParams(query);
		const parent = uuidParam(query, 'parent_id');
		const q = query.query?.toLowerCase();
		const rows = store.data.folders
			.filter((f) => (!parent || f.parentId === parent) && (!q || f.name.toLowerCase().includes(q)))
			.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
		return {
			status: 200,
			body: paginate(
				rows.map((f) => renderFolder(store, f)),
				p,
			),
		};
	});

	router.get('/knowledge-hub/folders/:id', ({ params }) => {
		const folder = store.folder(params.id);
		if (!folder) throw notFound(`Folder not found: ${params.id}`);
		return { status: 200, body: renderFolder(store, folder) };
	});
}
