/**
 * How long a trigger's poll may keep sending requests. n8n's durable scheduler abandons a poll after
 * its timeout without cancelling it (the result is dropped, nothing is committed), and tells the node
 * the part it may use (`getPollBudgetMs`: 36 s of a 45 s timeout); the legacy poller and n8n 1.x give
 * five minutes. A request is sent only when the slowest answer seen so far in this poll would still
 * arrive before the end, and a pacer or rate-limit wait only when it ends in time: past that the read
 * stops where it is, keeps its progress and goes on at the next poll, and an abandoned poll sends
 * nothing more.
 */
export class Deadline {
	/** The slowest answer of this poll so far: what the next one is expected to take at most. */
	private slowestMs = 0;

	constructor(readonly endsAt: number) {}

	/** A poll's deadline: its budget, less a margin for handing the result to n8n. */
	static forPoll(budgetMs: number, now: number): Deadline {
		return new Deadline(now + Math.max(0, budgetMs - Math.min(HAND_OFF_MS, budgetMs / 10)));
	}

	/** Whether a request sent after waiting `waitMs` from `now` would be answered in time. */
	allows(now: number, waitMs = 0): boolean {
		return now + waitMs + this.slowestMs <= this.endsAt;
	}

	/** Records how long an answer took. */
	answered(ms: number): void {
		if (ms > this.slowestMs) this.slowestMs = ms;
	}
}

/** The hand-off margin: what turning the read into items and state may take after the last answer. */
const HAND_OFF_MS = 3_000;

/**
 * Thrown by the transport instead of sending a request the deadline leaves no time for. The trigger's
 * reads stop at it and keep their progress (family.ts); it never reaches n8n.
 */
export class OutOfTime extends Error {
	constructor() {
		super("The poll's time is up: the read continues at the next poll");
		this.name = 'OutOfTime';
	}
}

export const isOutOfTime = (error: unknown): error is OutOfTime => error instanceof OutOfTime;
