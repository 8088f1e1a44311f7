/**
 * Requests a Practice Results trigger spends in a day at its default settings, every event chosen, in a
 * workspace of 5,000 sessions and 2,000 assignments (300 open, 200 past due): idle, and a busy day of
 * 200 scored sessions (a third listed unscored and scored 10 to 40 minutes later) and 50 assignment
 * changes. Also the median minutes from a session's score to its Session Scored event.
 * A day of n8n's default schedule (a poll a minute) on the simulator's movable clock and a host clock
 * moved by the same minute (the trigger paces on the host clock); counts do not depend on the machine.
 */
import { ManualClock, SEED_NOW, startSimulator } from '../../simulator';
import { PollHarness } from '../../n8n-harness/pollHarness';

export interface PracticeQuotaFigures {
	idleRequestsPerDay: number;
	busyRequestsPerDay: number;
	busyScoredSessions: number;
	busyAssignmentEvents: number;
	medianDelayMinutes: number;
	goalIdle: number;
	goalBusy: number;
}

const MINUTE = 60_000;
const EVENTS = [
	'sessionScored',
	'assignmentCompleted',
	'assignmentDidNotPass',
	'assignmentPastDue',
];

async function day(busy: boolean) {
	const clock = new ManualClock(SEED_NOW);
	const sim = await startSimulator({ clock });
	const realNow = Date.now;
	let host = realNow.call(Date);
	Date.now = () => host;
	try {
		const control = sim.control;
		control.fillPractice({ sessions: 5000, assignments: 2000, open: 300, pastDue: 200 });
		const store = control.store;
		const open = store.data.assignments.filter((a) => a.status === 'not_started');
		// 50 assignment changes: 40 open ones finished by the day's sessions, 10 going past due.
		open
			.slice(0, 10)
			.forEach((a) => (a.dueDate = SEED_NOW + (2 + Math.floor(Math.random() * 20)) * 3_600_000));
		const trigger = new PollHarness({
			parameters: {
				triggerOn: 'practice',
				practiceEvents: EVENTS,
				practiceOptions: { minReadMinutes: 30 },
			},
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});
		const activation = await trigger.poll();
		if (activation.error) throw activation.error;
		control.clearRequests();
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
				const target = n < 40 ? open[10 + n] : undefined;
				// The other sessions: someone who left (no open assignments), so the day has 50 changes.
				const user = target ? store.userById(target.userId)! : store.userByEmail('hal@acme.com')!;
				const scenario = target ? target.scenarioId : store.data.scenarios[0].id;
				if (n % 3 === 0) {
					const s = control.addSession({ userEmail: user.email, scenario });
					pending.push({ id: s.id, at: now + (10 + (n % 31)) * MINUTE });
				} else {
					const s = control.addSession({
						userEmail: user.email,
						scenario,
						score: target ? 95 : 40 + (n % 60),
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
		delays.sort((a, b) => a - b);
		return {
			requests: control.requests({}).length,
			scored: delays.length,
			assignmentEvents,
			median: delays.length ? delays[Math.floor(delays.length / 2)] : 0,
		};
	} finally {
		Date.now = realNow;
		await sim.close();
	}
}

export async function benchPracticeQuota(): Promise<PracticeQuotaFigures> {
	const idle = await day(false);
	const busy = await day(true);
	return {
		idleRequestsPerDay: idle.requests,
		busyRequestsPerDay: busy.requests,
		busyScoredSessions: busy.scored,
		busyAssignmentEvents: busy.assignmentEvents,
		medianDelayMinutes: busy.median,
		goalIdle: 100,
		goalBusy: 150,
	};
}
