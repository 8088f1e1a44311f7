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

/**
 * `work` over `inputs` in their order, at most `concurrency` at a time, until the poll's deadline
 * stops one (`OutOfTime`): the results of the longest run from the first input that all finished, so
 * a read can hand on exactly the part it has and go on from there at the next poll. No new input is
 * started after a stop; any other error is thrown once the started ones have ended.
 */
export async function mapWhileInTime<I, O>(
	inputs: I[],
	concurrency: number,
	work: (input: I) => Promise<O>,
): Promise<O[]> {
	const results = new Array<O>(inputs.length);
	const done = new Array<boolean>(inputs.length).fill(false);
	let next = 0;
	let stopAt = inputs.length;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (next < stopAt && failure === undefined) {
			const index = next++;
			try {
				results[index] = await work(inputs[index]);
				done[index] = true;
			} catch (error) {
				if (isOutOfTime(error)) stopAt = Math.min(stopAt, index);
				else failure ??= { error };
			}
		}
	};
	await Promise.all(
		Array.from({ length: Math.min(Math.max(1, concurrency), inputs.length) }, worker),
	);
	if (failure) throw failure.error;
	const finished = done.indexOf(false);
	return results.slice(0, finished === -1 ? inputs.length : finished);
}

/**
 * What `work` gives, or undefined when the poll's deadline stopped it (`OutOfTime`): where a read
 * keeps what it has. Any other error goes on as it is.
 */
export async function untilDeadline<T>(work: Promise<T>): Promise<T | undefined> {
	return await work.then(
		(value) => value,
		async (error: unknown) => (isOutOfTime(error) ? undefined : await Promise.reject(error)),
	);
}
