/** GET /workspace, /workspace/members, /workspace/groups, /collections, /contexts. */
import type { Engine } from '../engine';
import type { Router } from '../http';
import { pageParams, paginate } from '../query';
import {
	renderCollection,
	renderContext,
	renderGroup,
	renderMember,
	renderWorkspace,
} from '../state/render';
import { groupFilter } from './common';

export function registerWorkspace(router: Router, engine: Engine): void {
	const { store } = engine;
	router.get('/workspace', () => ({ status: 200, body: renderWorkspace(store) }));

	router.get('/workspace/members', ({ query }) => {
		const p = pageParams(query);
		const groups = groupFilter(store, query);
		const rows = store
			.members()
			.filter((u) => !groups || groups.has(u.id))
			.sort((a, b) => a.joinedAt - b.joinedAt || a.email.localeCompare(b.email));
		return { status: 200, body: paginate(rows.map(renderMember), p) };
	});

	router.get('/workspace/groups', ({ query }) => {
		const p = pageParams(query);
		const rows = [...store.data.groups].sort((a, b) => a.createdAt - b.createdAt);
		return { status: 200, body: paginate(rows.map(renderGroup), p) };
	});

	router.get('/collections', ({ query }) => {
		const p = pageParams(query);
		const rows = [...store.data.collections].sort(
			(a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
		);
		return {
			status: 200,
			body: paginate(
				rows.map((c) => renderCollection(store, c)),
				p,
			),
		};
	});

	// Newest first.
	router.get('/contexts', ({ query }) => {
		const p = pageParams(query);
		const rows = [...store.data.contexts].sort((a, b) => b.createdAt - a.createdAt);
		return { status: 200, body: paginate(rows.map(renderContext), p) };
	});
}
