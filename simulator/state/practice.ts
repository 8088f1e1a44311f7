/**
 * Practice as it happens: sessions that arrive (possibly late, possibly unscored), get their score
 * later, and move the member's assignments; assignments past their due date on the simulator's clock.
 * The spec shows no assignment transitions; these are the plain reading of its fields: a scored attempt
 * counts; reaching `rank_min` (any rank when null) after `attempt_min` attempts completes it; running out
 * of `attempt_max` attempts without that fails it (did_not_pass); an open one past its due date is
 * past_due and can still be completed or failed.
 */
import type { AssignmentStatus, Rank } from '../schemas';
import { rankFor, SYSTEM_EMAIL_DOMAIN } from './seed';
import type { Store } from './store';
import type { AssignmentRec, SessionRec } from './types';

const RANK_ORDER: Record<Rank, number> = { unranked: 0, bronze: 1, silver: 2, gold: 3 };
const OPEN = new Set<AssignmentRec['status']>(['not_started', 'in_progress', 'past_due']);

export interface NewSession {
	userId: string;
	scenarioId: string;
	/** null: listed unscored until scoreSession gives it one. */
	score: number | null;
	/** When the session was created (earlier than now for a session that shows up late). */
	createdAt: number;
	durationSeconds?: number;
	programId?: string | null;
}

/**
 * Moves an assignment to a status and logs the change (the log is what tests take as the truth of what
 * happened). The spec shows no transitions, so any status may follow any other.
 */
export function setAssignmentStatus(
	store: Store,
	a: AssignmentRec,
	to: AssignmentStatus,
	now: number,
): void {
	if (a.status === to) return;
	store.assignmentLog.push({ id: a.id, from: a.status, to, at: now });
	a.status = to;
}

/** Adds an assignment (created now, or earlier for one that shows up late) and logs its creation. */
export function addAssignment(store: Store, rec: AssignmentRec): AssignmentRec {
	store.data.assignments.push(rec);
	store.assignmentLog.push({ id: rec.id, from: null, to: rec.status, at: rec.createdAt });
	return rec;
}

/** Adds a session; a scored one counts as an attempt right away. */
export function addSession(store: Store, input: NewSession, now: number): SessionRec {
	const rec: SessionRec = {
		id: store.rng.uuid(),
		userId: input.userId,
		scenarioId: input.scenarioId,
		score: null,
		durationSeconds: input.durationSeconds ?? null,
		valid: false,
		programId: input.programId ?? null,
		createdAt: store.stamp(input.createdAt),
	};
	store.data.sessions.push(rec);
	if (input.score !== null) scoreSession(store, rec, input.score, now);
	else rec.pendingScore = true;
	return rec;
}

/** Grades a session: it becomes a valid attempt and moves the member's open assignments on it. */
export function scoreSession(store: Store, session: SessionRec, score: number, now: number): void {
	if (session.score !== null) throw new Error(`session ${session.id} is already scored`);
	if (!Number.isFinite(score) || score < 0 || score > 100)
		throw new Error(`score must be between 0 and 100, got ${score}`);
	session.score = score;
	session.valid = true;
	store.scoreLog.push({ id: session.id, score, at: now });
	delete session.pendingScore;
	session.durationSeconds ??= 180 + store.rng.int(0, 420);
	observeSession(store, session);
	refreshPastDue(store, now);
	for (const a of store.data.assignments) {
		if (a.userId !== session.userId || a.scenarioId !== session.scenarioId || !OPEN.has(a.status))
			continue;
		countAttempt(store, a, score, now);
	}
}

/**
 * A scored session is an observation of every skill its scenario evaluates (spec 4.3 rule 1: "roleplay
 * sessions and calls combined"), dated when it was practised (its created_at).
 */
export function observeSession(store: Store, session: SessionRec): void {
	if (session.score === null) return;
	const scenario = store.scenarioById(session.scenarioId);
	for (const skillId of scenario?.skillIds ?? [])
		store.data.observations.push({
			userId: session.userId,
			skillId,
			score: session.score,
			at: session.createdAt,
			kind: 'session',
		});
}

function countAttempt(store: Store, a: AssignmentRec, score: number, now: number): void {
	a.attemptCount += 1;
	if (a.bestScore === null || score > a.bestScore) {
		a.bestScore = score;
		a.bestRank = rankFor(score);
	}
	const rankMet = a.rankMin === null || RANK_ORDER[rankFor(score)] >= RANK_ORDER[a.rankMin];
	const enough = a.attemptCount >= (a.attemptMin ?? 1);
	if (rankMet && enough) setAssignmentStatus(store, a, 'completed', now);
	else if (a.attemptMax !== null && a.attemptCount >= a.attemptMax)
		setAssignmentStatus(store, a, 'did_not_pass', now);
	else if (a.status === 'not_started') setAssignmentStatus(store, a, 'in_progress', now);
}

/** Open assignments whose due date has passed become past_due. */
export function refreshPastDue(store: Store, now: number): void {
	for (const a of store.data.assignments) {
		if (
			(a.status === 'not_started' || a.status === 'in_progress') &&
			a.dueDate !== null &&
			a.dueDate <= now
		)
			setAssignmentStatus(store, a, 'past_due', a.dueDate);
	}
}

export interface PracticeMix {
	/** How many sessions to add. */
	sessions: number;
	/** Share (0..1) listed unscored, to be scored by a later scoreSession or scorePending. */
	unscoredShare?: number;
	/** Share (0..1) created up to `lateByMs` before now (sessions that show up late). */
	lateShare?: number;
	lateByMs?: number;
	/** Share (0..1) of sessions by people who left the workspace or by system users. */
	formerOrSystemShare?: number;
}

/** Seeded random practice: who, which scenario, which score, how late; all from the store's RNG. */
export function simulatePractice(store: Store, mix: PracticeMix, now: number): SessionRec[] {
	const { rng } = store;
	const system = (email: string) => email.toLowerCase().endsWith(SYSTEM_EMAIL_DOMAIN);
	const people = store.data.users.filter((u) => u.member && !system(u.email));
	const others = store.data.users.filter((u) => !u.member || system(u.email));
	const scenarios = store.data.scenarios.filter((s) => !s.archived);
	const out: SessionRec[] = [];
	for (let i = 0; i < mix.sessions; i++) {
		const user =
			others.length && rng.next() < (mix.formerOrSystemShare ?? 0)
				? rng.pick(others)
				: rng.pick(people);
		const late = rng.next() < (mix.lateShare ?? 0);
		out.push(
			addSession(
				store,
				{
					userId: user.id,
					scenarioId: rng.pick(scenarios).id,
					score: rng.next() < (mix.unscoredShare ?? 0) ? null : rng.int(20, 100),
					createdAt: late ? now - rng.int(1, mix.lateByMs ?? 3_600_000) : now,
				},
				now,
			),
		);
	}
	return out;
}

/** Scores every unscored session (or the first `count`), oldest first, with seeded scores. */
export function scorePending(store: Store, now: number, count = Infinity): SessionRec[] {
	const pending = store.data.sessions
		.filter((s) => s.pendingScore === true)
		.sort((a, b) => a.createdAt - b.createdAt)
		.slice(0, count);
	for (const s of pending) scoreSession(store, s, store.rng.int(20, 100), now);
	return pending;
}

export interface PracticeSize {
	sessions: number;
	assignments: number;
	/** Of the assignments: not_started or in_progress, due in the future. */
	open: number;
	/** Of the assignments: past due. */
	pastDue: number;
}

/**
 * Fills the workspace to a realistic size (for quota figures): old scored sessions spread over the
 * past year, assignments of which `open` are open, `pastDue` past due and the rest completed.
 */
export function fillPractice(store: Store, size: PracticeSize, now: number): void {
	const { rng } = store;
	const people = store.data.users.filter((u) => u.member);
	const scenarios = store.data.scenarios.filter((s) => !s.archived);
	const DAY = 86_400_000;
	for (let i = 0; i < size.sessions; i++) {
		const session: SessionRec = {
			id: rng.uuid(),
			userId: rng.pick(people).id,
			scenarioId: rng.pick(scenarios).id,
			score: rng.int(20, 100),
			durationSeconds: 180 + rng.int(0, 420),
			valid: true,
			programId: null,
			createdAt: store.stamp(now - DAY - rng.int(0, 365 * DAY)),
		};
		store.data.sessions.push(session);
		observeSession(store, session);
	}
	for (let i = 0; i < size.assignments; i++) {
		const kind = i < size.open ? 'open' : i < size.open + size.pastDue ? 'pastDue' : 'done';
		const createdAt = store.stamp(now - rng.int(30, 365) * DAY);
		const score = kind === 'done' ? rng.int(60, 100) : null;
		store.data.assignments.push({
			id: rng.shortId(),
			userId: rng.pick(people).id,
			scenarioId: rng.pick(scenarios).id,
			status: kind === 'open' ? 'not_started' : kind === 'pastDue' ? 'past_due' : 'completed',
			dueDate: kind === 'open' ? now + rng.int(2, 60) * DAY : createdAt + 14 * DAY,
			bestScore: score,
			bestRank: score === null ? null : rankFor(score),
			attemptCount: score === null ? 0 : 1,
			attemptMin: 1,
			attemptMax: null,
			rankMin: null,
			programId: null,
			createdAt,
			assignerId: null,
			customMessage: null,
		});
	}
}
