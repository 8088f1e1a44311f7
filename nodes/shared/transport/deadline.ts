/**
 * How long a poll may send requests. n8n's durable scheduler drops a poll's result after its timeout
 * without cancelling it (`getPollBudgetMs`: 36 s of 45 s; 5 minutes elsewhere), so a request is sent
 * only when the slowest answer so far would still arrive in time; past that the read stops and resumes.
 */
export class Deadline {
	/** The slowest answer of this poll so far: what the next one may take. */
	private slowestMs = 0;
	/** It refused a request: the read has work left, and the next poll goes on with it. */
	stopped = false;

	constructor(readonly endsAt: number) {}

	/** A poll's deadline: its budget, less a margin for handing the result to n8n. */
	static forPoll(budgetMs: number, now: number): Deadline {
		return new Deadline(now + Math.max(0, budgetMs - Math.min(HAND_OFF_MS, budgetMs / 10)));
	}

	/** Whether a request sent after waiting `waitMs` from `now` would be answered in time. */
	allows(now: number, waitMs = 0): boolean {
		return now + waitMs + this.slowestMs <= this.endsAt;
	}

	answered(ms: number): void {
		if (ms > this.slowestMs) this.slowestMs = ms;
	}

	/** What the transport throws instead of a request this deadline leaves no time for. */
	refuse(): OutOfTime {
		this.stopped = true;
		return new OutOfTime();
	}
}

/** What turning the read into items and state may take after the last answer. */
const HAND_OFF_MS = 3_000;

/** Thrown instead of a request the deadline leaves no time for; reads stop there, n8n never sees it. */
export class OutOfTime extends Error {
	constructor() {
		super("The poll's time is up: the read continues at the next poll");
		this.name = 'OutOfTime';
	}
}

export const isOutOfTime = (error: unknown): error is OutOfTime => error instanceof OutOfTime;

/**
 * What `work` gives, or undefined when the deadline stopped it; any other error goes on. Families never
 * call it: their read's `step` is this (family.ts), and so is every stop of a resumable page walk and a
 * pool (paginate.ts).
 */
export async function untilDeadline<T>(work: Promise<T>): Promise<T | undefined> {
	return await work.then(
		(value) => value,
		async (error: unknown) => (isOutOfTime(error) ? undefined : await Promise.reject(error)),
	);
}
