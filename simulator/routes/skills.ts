/** Skills list and per-user skill proficiency (spec 4.3). */
import type { Engine } from '../engine';
import { notFound, type Router } from '../http';
import { bool, dateParam, includes, pageParams, paginate } from '../query';
import type { ProficiencyRow, Skill } from '../schemas';
import { proficiency, round1, round2, type Proficiency } from '../state/analytics';
import { renderSkill, userRef } from '../state/render';
import type { Store } from '../state/store';
import type { ObservationRec } from '../state/types';
import { isSystemUser, peopleFilter } from './common';
import { iso } from '../clock';

/** Observations by skill, rebuilt when the list is replaced or grows (they are only ever added). */
let bySkill:
	| { list: ObservationRec[]; length: number; map: Map<string, ObservationRec[]> }
	| undefined;

function observationsOf(store: Store, skillId: string): ObservationRec[] {
	const list = store.data.observations;
	if (!bySkill || bySkill.list !== list || bySkill.length !== list.length) {
		const map = new Map<string, ObservationRec[]>();
		for (const o of list) {
			const group = map.get(o.skillId);
			if (group) group.push(o);
			else map.set(o.skillId, [o]);
		}
		bySkill = { list, length: list.length, map };
	}
	return bySkill.map.get(skillId) ?? [];
}

/** Members only: people who left the workspace are not reported. */
function memberProficiency(store: Store, skillId: string, asOf: number): Proficiency[] {
	return proficiency(observationsOf(store, skillId), asOf).filter(
		(p) => store.userById(p.userId)?.member === true,
	);
}

export function registerSkills(router: Router, engine: Engine): void {
	const { store } = engine;

	router.get('/skills', ({ query }) => {
		const p = pageParams(query);
		const inc = includes(query, ['proficiency']);
		const rows = [...store.data.skills].sort((a, b) => a.name.localeCompare(b.name));
		const env = paginate(rows, p);
		const data: Skill[] = env.data.map((s) => {
			const out = renderSkill(s);
			if (inc.has('proficiency')) {
				const all = memberProficiency(store, s.id, engine.now());
				const scored = all.filter((x) => x.score !== null);
				const plus = scored.filter((x) => x.tier === 'excellent' || x.tier === 'proficient').length;
				out.proficiency_summary = {
					participant_count: all.length,
					scored_participant_count: scored.length,
					pct_proficient_plus: scored.length ? Math.round((plus / scored.length) * 100) : 0,
					avg_score: scored.length
						? round1(scored.reduce((sum, x) => sum + (x.score as number), 0) / scored.length)
						: null,
				};
			}
			return out;
		});
		return { status: 200, body: { data, pagination: env.pagination } };
	});

	router.get('/skills/:id/proficiency', ({ params, query }) => {
		const skill = store.skill(params.id);
		if (!skill) throw notFound(`Skill not found: ${params.id}`);
		const p = pageParams(query);
		const people = peopleFilter(store, query);
		const asOf = dateParam(query, 'end_date') ?? engine.now();
		const noSystem = bool(query, 'exclude_system_users');
		const users = { get: (id: string) => store.userById(id) };
		const rows = memberProficiency(store, skill.id, asOf).filter(
			(r) => people(r.userId) && !(noSystem && isSystemUser(users.get(r.userId))),
		);
		const email = (r: Proficiency): string => users.get(r.userId)?.email ?? '';
		// Highest score first, users without a score last, then by e-mail.
		rows.sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || email(a).localeCompare(email(b)));
		const env = paginate(rows, p);
		const data: ProficiencyRow[] = env.data.map((r) => {
			const user = users.get(r.userId);
			if (!user) throw new Error(`unknown user ${r.userId}`);
			return {
				user: userRef(user),
				score: r.score === null ? null : round2(r.score),
				tier: r.tier,
				observation_count: r.observation_count,
				last_practiced_at: iso(r.lastAt),
			};
		});
		return { status: 200, body: { data, pagination: env.pagination } };
	});
}
