/** Scenarios: list, access check/grant, assignments list, assign. */
import type { Engine } from '../engine';
import { badRequest, invalidValue, missingField, notFound, type Router } from '../http';
import {
	bool,
	checkEmail,
	csv,
	csvEnum,
	includes,
	objectBody,
	optEnum,
	optInt,
	optString,
	pageParams,
	paginate,
	parseDate,
	reqString,
} from '../query';
import type { AccessCheck, PermissionLevel } from '../schemas';
import { addAssignment, refreshPastDue } from '../state/practice';
import { renderAssignment, renderScenario } from '../state/render';
import type { Store } from '../state/store';
import type { AssignmentRec, ScenarioRec, UserRec } from '../state/types';
import { userFilter } from './common';

type Perms = AccessCheck['permissions'];

const LEVEL_PERMS: Record<PermissionLevel, Array<keyof Perms>> = {
	view: ['can_view'],
	share: ['can_view', 'can_share'],
	monitor: ['can_view', 'can_monitor'],
	edit: ['can_view', 'can_share', 'can_monitor', 'can_edit'],
};

/**
 * Owner: everything. Workspace visibility: view for every member. Plus whatever user
 * and group shares grant; the union of all that apply.
 */
export function permissionsFor(s: ScenarioRec, user: UserRec): Perms {
	const perms: Perms = { can_view: false, can_share: false, can_monitor: false, can_edit: false };
	const grant = (level: PermissionLevel): void => {
		for (const k of LEVEL_PERMS[level]) perms[k] = true;
	};
	if (s.ownerId === user.id) grant('edit');
	if (s.visibility === 'workspace' && user.member) grant('view');
	const own = s.userShares[user.id];
	if (own) grant(own);
	for (const g of user.groupIds) {
		const level = s.groupShares[g];
		if (level) grant(level);
	}
	return perms;
}

export function scenarioOr404(store: Store, id: string, allowSlug: boolean): ScenarioRec {
	const s = allowSlug ? store.scenarioByIdOrSlug(id) : store.scenarioById(id);
	if (!s) throw notFound(`Scenario not found: ${id}`);
	return s;
}

export function memberOr400(store: Store, email: string, field = 'user_email'): UserRec {
	checkEmail(email, field);
	const user = store.memberByEmail(email);
	if (!user) throw badRequest(`${field} is not a workspace member: ${email}`, 'user_not_found');
	return user;
}

const STATUSES = ['not_started', 'in_progress', 'completed', 'past_due', 'did_not_pass'] as const;

export function registerScenarios(router: Router, engine: Engine): void {
	const { store } = engine;

	router.get('/scenarios', ({ query }) => {
		const p = pageParams(query);
		const inc = includes(query, ['skills']);
		const ownerEmail = query.owner_email ? checkEmail(query.owner_email, 'owner_email') : undefined;
		const visibleTo = query.visible_to_email
			? checkEmail(query.visible_to_email, 'visible_to_email')
			: undefined;
		const visibility = csvEnum(query, 'visibility', ['private', 'workspace'] as const);
		const includeArchived = bool(query, 'include_archived');
		const skillIds = csv(query, 'skill_ids');
		const collectionIds = csv(query, 'collection_ids');
		const owner = ownerEmail ? store.userByEmail(ownerEmail) : undefined;
		const viewer = visibleTo ? store.userByEmail(visibleTo) : undefined;
		const rows = store.data.scenarios.filter(
			(s) =>
				(includeArchived || !s.archived) &&
				(!ownerEmail || (owner !== undefined && s.ownerId === owner.id)) &&
				(!visibleTo || (viewer !== undefined && permissionsFor(s, viewer).can_view)) &&
				(!visibility || visibility.includes(s.visibility)) &&
				(!skillIds || s.skillIds.some((id) => skillIds.includes(id))) &&
				(!collectionIds || s.collectionIds.some((id) => collectionIds.includes(id))),
		);
		// Newest first; ties by id so paging is stable.
		rows.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
		const env = paginate(rows, p);
		return {
			status: 200,
			body: { ...env, data: env.data.map((s) => renderScenario(store, s, inc.has('skills'))) },
		};
	});

	router.get('/scenarios/:id/access', ({ params, query }) => {
		const scenario = scenarioOr404(store, params.id, false);
		if (!query.user_email) throw missingField('user_email');
		const user = memberOr400(store, query.user_email);
		const body: AccessCheck = {
			user_email: user.email,
			scenario_id: scenario.id,
			permissions: permissionsFor(scenario, user),
		};
		return { status: 200, body };
	});

	router.post('/scenarios/:id/access', ({ params, body: raw }) => {
		const scenario = scenarioOr404(store, params.id, false);
		const body = objectBody(raw);
		const email = reqString(body, 'user_email');
		if (body.permission_level === undefined || body.permission_level === null)
			throw missingField('permission_level');
		const level = optEnum(body, 'permission_level', [
			'view',
			'share',
			'monitor',
			'edit',
		] as const) as PermissionLevel;
		const user = memberOr400(store, email);
		scenario.userShares[user.id] = level;
		return {
			status: 200,
			body: {
				user_email: user.email,
				scenario_id: scenario.id,
				permission_level: level,
				granted: true,
			},
		};
	});

	router.get('/scenarios/assignments', ({ query }) => {
		const p = pageParams(query);
		const users = userFilter(store, query);
		const scenarioIds = csv(query, 'scenario_ids');
		const programIds = csv(query, 'program_ids');
		const statuses = csvEnum(query, 'status', STATUSES);
		// Due dates pass on the clock even when nothing ticks (a real clock).
		refreshPastDue(store, engine.now());
		const rows = store.data.assignments
			.filter(
				(a) =>
					(!users || users.has(a.userId)) &&
					(!scenarioIds || scenarioIds.includes(a.scenarioId)) &&
					(!programIds || (a.programId !== null && programIds.includes(a.programId))) &&
					(!statuses || statuses.includes(a.status)),
			)
			.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
		const env = paginate(rows, p);
		return { status: 200, body: { ...env, data: env.data.map((a) => renderAssignment(store, a)) } };
	});

	router.post('/scenarios/:id/assignments', ({ params, body: raw }) => {
		const scenario = scenarioOr404(store, params.id, false);
		const body = objectBody(raw);
		const email = reqString(body, 'user_email');
		const due = reqString(body, 'due_date');
		const dueDate = parseDate(due, 'due_date');
		const assignerEmail = optString(body, 'assigner_email');
		const attemptMin = optInt(body, 'attempt_min', 1);
		const attemptMax = optInt(body, 'attempt_max', 1);
		if (attemptMin !== undefined && attemptMax !== undefined && attemptMax < attemptMin) {
			throw invalidValue('attempt_max must be greater than or equal to attempt_min');
		}
		const rankMin = optEnum(body, 'rank_min', ['gold', 'silver', 'bronze'] as const);
		const customMessage = optString(body, 'custom_message');
		const user = memberOr400(store, email);
		const assigner = assignerEmail
			? memberOr400(store, assignerEmail, 'assigner_email')
			: undefined;
		const rec: AssignmentRec = {
			id: store.rng.shortId(),
			userId: user.id,
			scenarioId: scenario.id,
			status: 'not_started',
			dueDate,
			bestScore: null,
			bestRank: null,
			attemptCount: 0,
			attemptMin: attemptMin ?? 1,
			attemptMax: attemptMax ?? null,
			rankMin: rankMin ?? null,
			programId: null,
			createdAt: engine.now(),
			assignerId: assigner?.id ?? null,
			customMessage: customMessage ?? null,
		};
		addAssignment(store, rec);
		return { status: 200, body: renderAssignment(store, rec) };
	});
}
