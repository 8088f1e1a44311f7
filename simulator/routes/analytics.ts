/** Scenario analytics: summary and per-participant table. Scenario path accepts id or slug. */
import type { Engine } from '../engine';
import type { Router } from '../http';
import { bool, dateParam, pageParams, paginate, sortParam, sortInput } from '../query';
import type { AnalyticsSummary, ParticipantRow } from '../schemas';
import { participantStats, round1, type ParticipantStats } from '../state/analytics';
import { userRef } from '../state/render';
import { rankFor } from '../state/seed';
import type { Store } from '../state/store';
import { isSystemUser, peopleFilter } from './common';
import { scenarioOr404 } from './scenarios';

const SORT_KEYS = [
	'best_score',
	'first_score',
	'lift_percentage',
	'total_duration_seconds',
	'session_count',
] as const;

function filteredSessions(store: Store, scenarioId: string, query: Record<string, string>) {
	const people = peopleFilter(store, query);
	const from = dateParam(query, 'start_date');
	const to = dateParam(query, 'end_date');
	const noSystem = bool(query, 'exclude_system_users');
	return store.data.sessions.filter(
		(s) =>
			s.scenarioId === scenarioId &&
			people(s.userId) &&
			(from === undefined || s.createdAt >= from) &&
			(to === undefined || s.createdAt <= to) &&
			!(noSystem && isSystemUser(store.userById(s.userId))),
	);
}

export function registerAnalytics(router: Router, engine: Engine): void {
	const { store } = engine;

	router.get('/scenarios/:id/analytics/participants', ({ params, query }) => {
		const scenario = scenarioOr404(store, params.id, true);
		const p = pageParams(query);
		// The spec names it `sort`, the deployed service's OpenAPI `sorting`: either works; both must agree.
		const { raw, name } = sortInput(query, ['sort', 'sorting'], []);
		const { field, desc } = sortParam(raw, name, SORT_KEYS, '-best_score');
		const rows = participantStats(filteredSessions(store, scenario.id, query));
		const email = (r: ParticipantStats): string => store.userById(r.userId)?.email ?? '';
		rows.sort(
			(a, b) =>
				(desc ? b[field] - a[field] : a[field] - b[field]) || email(a).localeCompare(email(b)),
		);
		const env = paginate(rows, p);
		const data: ParticipantRow[] = env.data.map(({ userId, ...rest }) => {
			const user = store.userById(userId);
			if (!user) throw new Error(`unknown user ${userId}`);
			return { user: userRef(user), ...rest };
		});
		return { status: 200, body: { data, pagination: env.pagination } };
	});

	router.get('/scenarios/:id/analytics/summary', ({ params, query }) => {
		const scenario = scenarioOr404(store, params.id, true);
		const sessions = filteredSessions(store, scenario.id, query).filter(
			(s) => s.valid && s.score !== null,
		);
		const rows = participantStats(sessions);
		const n = rows.length;
		const avg = (f: (r: ParticipantStats) => number): number =>
			n ? round1(rows.reduce((s, r) => s + f(r), 0) / n) : 0;
		const totalSeconds = sessions.reduce((s, x) => s + (x.durationSeconds ?? 0), 0);
		const averageBest = avg((r) => r.best_score);
		const body: AnalyticsSummary = {
			participant_count: n,
			total_sessions: sessions.length,
			average_best_score: averageBest,
			average_best_rank: rankFor(averageBest),
			average_lift_percentage: avg((r) => r.lift_percentage),
			total_practice_minutes: Math.round(totalSeconds / 60),
			average_session_duration_seconds: sessions.length
				? round1(totalSeconds / sessions.length)
				: 0,
			score_distribution: (['gold', 'silver', 'bronze', 'unranked'] as const).map((rank) => {
				const count = rows.filter((r) => r.best_rank === rank).length;
				return { rank, count, percentage: n ? round1((count / n) * 100) : 0 };
			}),
		};
		return { status: 200, body };
	});
}
