import type { Deadline } from './deadline';
import type { PaceLimits } from './pacer';
import { UNPACED } from './pacer';

/** The per-run object (ARCHITECTURE.md); kept in a WeakMap by the run's context, it dies with it. */
export interface Run {
	/** Limits of the credential's minute this run keeps to (pacer.ts); 0 turns one off. */
	readonly pace: PaceLimits;
	/** What the run's items share, by name (each name owned by one module, made at its first use). */
	readonly shared: Map<string, unknown>;
	/** A poll's: no request is sent that could not be answered before it. */
	readonly deadline?: Deadline;
}

const runs = new WeakMap<object, Run>();

export function startRun(ctx: object, pace: PaceLimits, deadline?: Deadline): void {
	runs.set(ctx, { pace, shared: new Map(), deadline });
}

export function runOf(ctx: object): Run {
	const run = runs.get(ctx) ?? { pace: UNPACED, shared: new Map() };
	runs.set(ctx, run);
	return run;
}

/** What the run's items share under `name`, made by `make` at its first use in the run. */
export function sharedInRun<T>(ctx: object, name: string, make: () => T): T {
	const { shared } = runOf(ctx);
	if (!shared.has(name)) shared.set(name, make());
	// One module owns each name and always stores the same type under it.
	return shared.get(name) as T;
}
