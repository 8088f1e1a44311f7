/** Roleplay sessions: list with filters, and detail with optional transcript and evaluations. */
import type { Engine } from '../engine';
import { notFound, type Router } from '../http';
import {
	bool,
	csv,
	csvEnum,
	dateParam,
	includes,
	pageParams,
	paginate,
	sortParam,
	sortInput,
} from '../query';
import type { SessionDetail } from '../schemas';
import { renderSession } from '../state/render';
import { rankFor } from '../state/seed';
import type { SessionRec } from '../state/types';
import { isSystemUser, peopleFilter } from './common';

const SORT_KEYS = ['created_at', 'score', 'duration'] as const;

function sortValue(s: SessionRec, field: (typeof SORT_KEYS)[number]): number | null {
	if (field === 'created_at') return s.createdAt;
	if (field === 'score') return s.score;
	return s.durationSeconds;
}

function detail(
	s: SessionRec,
	base: ReturnType<typeof renderSession>,
	inc: Set<string>,
): SessionDetail {
	const graded = s.score !== null;
	const out: SessionDetail = {
		...base,
		outcome_feedback: graded
			? `Reached a ${rankFor(s.score as number)} result with a clear next step.`
			: null,
		positive_feedback: graded ? 'Open questions uncovered the buyer’s priorities.' : null,
		constructive_feedback: graded ? 'Quantify the impact before talking about price.' : null,
	};
	if (inc.has('transcript')) {
		out.transcript = [
			{
				speaker: 'ai',
				text: 'Thanks for making time today. What did you want to cover?',
				seconds_from_start: 0,
			},
			{
				speaker: 'user',
				text: 'I’d like to understand how you handle this process today.',
				seconds_from_start: 4.2,
			},
		];
	}
	if (inc.has('evaluations')) {
		out.evaluations = graded
			? [
					{
						criterion_name: 'Communication',
						items: [
							{
								name: 'Discovery questions',
								grade: (s.score as number) >= 75 ? 'good' : 'mid',
								feedback: 'Asked about the current process and its pain points.',
								feedback_examples: [
									{
										quote: 'How do you handle this process today?',
										feedback: 'Open and specific.',
										suggestion_quote: null,
										grade: 'good',
										salience: 'high',
									},
								],
							},
						],
					},
				]
			: [];
	}
	return out;
}

export function registerSessions(router: Router, engine: Engine): void {
	const { store } = engine;

	router.get('/sessions', ({ query }) => {
		const p = pageParams(query);
		const people = peopleFilter(store, query);
		const scenarioIds = csv(query, 'scenario_ids');
		const collectionIds = csv(query, 'collection_ids');
		const skillIds = csv(query, 'skill_ids');
		const programIds = csv(query, 'program_ids');
		const ranks = csvEnum(query, 'rank', ['gold', 'silver', 'bronze', 'unranked'] as const);
		const from = dateParam(query, 'start_date');
		const to = dateParam(query, 'end_date');
		const noSystem = bool(query, 'exclude_system_users');
		// `sorting` per the OpenAPI (the spec does not show this list's parameters); `sort` is refused.
		const { raw, name } = sortInput(query, ['sorting'], ['sort']);
		const { field, desc } = sortParam(raw, name, SORT_KEYS, '-created_at');
		const rows = store.data.sessions.filter((s) => {
			const scenario = store.scenarioById(s.scenarioId);
			return (
				people(s.userId) &&
				(!scenarioIds || scenarioIds.includes(s.scenarioId)) &&
				(!collectionIds ||
					(scenario?.collectionIds ?? []).some((c) => collectionIds.includes(c))) &&
				(!skillIds || (scenario?.skillIds ?? []).some((c) => skillIds.includes(c))) &&
				(!programIds || (s.programId !== null && programIds.includes(s.programId))) &&
				(!ranks || (s.score !== null && ranks.includes(rankFor(s.score)))) &&
				(from === undefined || s.createdAt >= from) &&
				(to === undefined || s.createdAt <= to) &&
				!(noSystem && isSystemUser(store.userById(s.userId)))
			);
		});
		// Missing scores/durations sort last in either direction.
		rows.sort((a, b) => {
			const va = sortValue(a, field);
			const vb = sortValue(b, field);
			if (va === null || vb === null)
				return va === vb ? a.id.localeCompare(b.id) : va === null ? 1 : -1;
			return (desc ? vb - va : va - vb) || a.id.localeCompare(b.id);
		});
		const env = paginate(rows, p);
		return { status: 200, body: { ...env, data: env.data.map((s) => renderSession(store, s)) } };
	});

	router.get('/sessions/:id', ({ params, query }) => {
		const inc = includes(query, ['transcript', 'evaluations']);
		const s = store.data.sessions.find((x) => x.id === params.id);
		if (!s) throw notFound(`Session not found: ${params.id}`);
		return { status: 200, body: detail(s, renderSession(store, s), inc) };
	});
}
