/**
 * Requests a Practice Results trigger spends in a day at its default settings, every event chosen, in
 * workspaces of different shapes: idle, and a busy day of 200 scored sessions by the workspace's
 * members (a third listed unscored and scored 10 to 40 minutes later; 40 of them finish an open
 * assignment, 10 open ones go past due). Also the median minutes from a session's score to its Session
 * Scored event, and, as a check, the assignment changes the simulator logged against the events sent.
 * A day of n8n's default schedule (a poll a minute) on the simulator's movable clock and a host clock
 * moved by the same minute (the trigger paces on the host clock); counts do not depend on the machine.
 */
import type { DataSize } from '../../simulator/state/seed';
import { ManualClock, SEED_NOW, startSimulator } from '../../simulator';
import { PollHarness } from '../../n8n-harness/pollHarness';
import { mulberry32 } from '../../simulator/state/random';
import type { PracticeAtScaleFigures } from './practiceAtScale';

export interface PracticeShapeFigures {
	shape: string;
	idle: number;
	busy: number;
	/** Outcomes the simulator logged during the busy day (finishes, past-due states that lasted). */
	busyAssignmentChanges: number;
	busyAssignmentEvents: number;
}

export interface PracticeQuotaFigures {
	idleRequestsPerDay: number;
	busyRequestsPerDay: number;
	busyScoredSessions: number;
	busyAssignmentEvents: number;
	medianDelayMinutes: number;
	/** Every shape measured; the two figures above are the first shape's. */
	shapes?: PracticeShapeFigures[];
	/** The most any shape spent. */
	worstIdle?: number;
	worstBusy?: number;
	goalIdle: number;
	goalBusy: number;
	/** Issue 48: the day at 2,000 members, judged per assignment ID (practiceAtScale.ts). */
	atScale?: PracticeAtScaleFigures;
}

interface Shape {
	name: string;
	dataSize: DataSize;
	sessions: number;
	assignments: number;
	open: number;
	pastDue: number;
	/** Scored sessions in the three hours before the day starts (a busy window the idle day inherits). */
	burstBefore: number;
}

const SHAPES: Shape[] = [
	{
		name: 'team of 8, 1,500 finished assignments',
		dataSize: {},
		sessions: 5000,
		assignments: 2000,
		open: 300,
		pastDue: 200,
		burstBefore: 0,
	},
	{
		name: 'team of 8, 300 sessions in the 3 hours before',
		dataSize: {},
		sessions: 5000,
		assignments: 2000,
		open: 300,
		pastDue: 200,
		burstBefore: 300,
	},
	{
		name: 'team of 300, 100 finished assignments',
		dataSize: { members: 300 },
		sessions: 5000,
		assignments: 600,
		open: 300,
		pastDue: 200,
		burstBefore: 0,
	},
];

const MINUTE = 60_000;
const EVENTS = [
	'sessionScored',
	'assignmentCompleted',
	'assignmentDidNotPass',
	'assignmentPastDue',
];

async function day(shape: Shape, busy: boolean) {
	const clock = new ManualClock(SEED_NOW);
	const sim = await startSimulator({ clock, dataSize: shape.dataSize });
	const random = mulberry32(20261125);
	const realNow = Date.now;
	let host = realNow.call(Date);
	Date.now = () => host;
	try {
		const control = sim.control;
		control.fillPractice({
			sessions: shape.sessions,
			assignments: shape.assignments,
			open: shape.open,
			pastDue: shape.pastDue,
		});
		const store = control.store;
		const members = store.data.users.filter((u) => u.member);
		const scenarios = store.data.scenarios.filter((s) => !s.archived);
		for (let i = 0; i < shape.burstBefore; i++) {
			control.addSession({
				userEmail: members[Math.floor(random() * members.length)].email,
				scenario: scenarios[Math.floor(random() * scenarios.length)].id,
				score: 20 + Math.floor(random() * 80),
				lateByMs: Math.floor(random() * 180 * MINUTE),
			});
		}
		const open = store.data.assignments.filter((a) => a.status === 'not_started');
		// 10 open ones go past due during the day.
		open
			.slice(0, 10)
			.forEach((a) => (a.dueDate = SEED_NOW + (2 + Math.floor(random() * 20)) * 3_600_000));
		const trigger = new PollHarness({
			parameters: {
				triggerOn: 'practice',
				practiceEvents: EVENTS,
				practiceOptions: { maxReadsPerDay: 48 },
			},
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});
		const activation = await trigger.poll();
		if (activation.error) throw activation.error;
		control.clearRequests();
		const logStart = control.assignmentLog().length;
		const scoredAt = new Map<string, number>();
		const delays: number[] = [];
		const pending: Array<{ id: string; at: number }> = [];
		let assignmentEvents = 0;
		for (let minute = 1; minute <= 24 * 60; minute++) {
			host += MINUTE;
			clock.advance(MINUTE);
			const now = Date.parse(control.now());
			if (busy && minute % 7 === 0 && scoredAt.size + pending.length < 200) {
				const n = scoredAt.size + pending.length;
				// Every 5th session finishes an open assignment (40 in the day); the rest are practice.
				const target = n % 5 === 0 ? open[10 + n / 5] : undefined;
				const user = target
					? store.userById(target.userId)!
					: members[Math.floor(random() * members.length)];
				const scenario = target
					? target.scenarioId
					: scenarios[Math.floor(random() * scenarios.length)].id;
				if (n % 3 === 1) {
					const s = control.addSession({ userEmail: user.email, scenario });
					pending.push({ id: s.id, at: now + (10 + (n % 31)) * MINUTE });
				} else {
					const s = control.addSession({
						userEmail: user.email,
						scenario,
						score: target ? 95 : 20 + Math.floor(random() * 80),
					});
					scoredAt.set(s.id, now);
				}
			}
			for (const p of pending.filter((x) => x.at <= now)) {
				control.scoreSession(p.id, 70);
				scoredAt.set(p.id, now);
				pending.splice(pending.indexOf(p), 1);
			}
			const outcome = await trigger.poll();
			if (outcome.error) throw outcome.error;
			for (const { json } of outcome.items) {
				if (json.event === 'sessionScored') {
					const id = String((json.session as { id: string }).id);
					delays.push((now - (scoredAt.get(id) ?? now)) / MINUTE);
				} else assignmentEvents++;
			}
		}
		// One more read after the day, so the day's last outcomes are counted.
		host += 6 * 60 * MINUTE;
		const requests = control.requests({}).length;
		const last = await trigger.poll();
		for (const { json } of last.items) if (json.event !== 'sessionScored') assignmentEvents++;
		// Outcomes: finishes, and past-due states that lasted (one a session finished at once is not seen).
		const statusOf = new Map(store.data.assignments.map((a) => [a.id, a.status]));
		const changes = control
			.assignmentLog()
			.slice(logStart)
			.filter(
				(c) =>
					c.to === 'completed' ||
					c.to === 'did_not_pass' ||
					(c.to === 'past_due' && statusOf.get(c.id) === 'past_due'),
			);
		delays.sort((a, b) => a - b);
		return {
			requests,
			scored: delays.length,
			assignmentEvents,
			assignmentChanges: changes.length,
			median: delays.length ? delays[Math.floor(delays.length / 2)] : 0,
		};
	} finally {
		Date.now = realNow;
		await sim.close();
	}
}

export async function benchPracticeQuota(): Promise<PracticeQuotaFigures> {
	const shapes: PracticeShapeFigures[] = [];
	let first: Awaited<ReturnType<typeof day>> | undefined;
	for (const shape of SHAPES) {
		const idle = await day(shape, false);
		const busy = await day(shape, true);
		first ??= busy;
		shapes.push({
			shape: shape.name,
			idle: idle.requests,
			busy: busy.requests,
			busyAssignmentChanges: busy.assignmentChanges,
			busyAssignmentEvents: busy.assignmentEvents,
		});
	}
	return {
		idleRequestsPerDay: shapes[0].idle,
		busyRequestsPerDay: shapes[0].busy,
		busyScoredSessions: first!.scored,
		busyAssignmentEvents: first!.assignmentEvents,
		medianDelayMinutes: first!.median,
		shapes,
		worstIdle: Math.max(...shapes.map((s) => s.idle)),
		worstBusy: Math.max(...shapes.map((s) => s.busy)),
		goalIdle: 100,
		goalBusy: 150,
	};
}
