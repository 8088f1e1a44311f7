import type { Deadline } from './deadline';
import type { PaceLimits } from './pacer';
import { UNPACED } from './pacer';

/**
 * The one per-run object: what one execution of the action node carries from its router down to its
 * requests and shares between its items. The router starts it (`startRun`) with the Batching it read;
 * `apiRequest` reads the pacing limits from it; an operation whose items share work in a run (Knowledge
 * Hub Page → Create or Update's title slots and folder lists, Scenario Job → Create's page contexts)
 * keeps that work in `shared`, under a name of its own. It is found from the run's context object (the
 * router hands its own context to every item's call), in the package's only WeakMap, and goes with
 * it: nothing outlives the run.
 * A trigger's poll starts one too (family.ts): with its family's pacing and the poll's deadline.
 * Contexts nobody started (webhooks, pick-lists) get an unpaced run of their own.
 */
export interface Run {
	/** Limits of the credential's minute this run keeps to (transport/pacer.ts); 0 turns one off. */
	readonly pace: PaceLimits;
	/** What the run's items share, by name (each name owned by one module, made at its first use). */
	readonly shared: Map<string, unknown>;
	/** A poll's: no request is sent that could not be answered before it (deadline.ts). */
	readonly deadline?: Deadline;
}

const runs = new WeakMap<object, Run>();

/**
 * Starts the run of an execution of the action node (with the limits its Batching chose) or of a
 * trigger's poll (its family's limits and the poll's deadline).
 */
export function startRun(ctx: object, pace: PaceLimits, deadline?: Deadline): Run {
	const run: Run = { pace, shared: new Map(), deadline };
	runs.set(ctx, run);
	return run;
}

/** From now on this run keeps to `pace` (its deadline and shared work stay). */
export function pacedRun(ctx: object, pace: PaceLimits): void {
	runs.set(ctx, { ...runOf(ctx), pace });
}

/** The run this context belongs to (an unpaced one when the router did not start one). */
export function runOf(ctx: object): Run {
	let run = runs.get(ctx);
	if (!run) {
		run = { pace: UNPACED, shared: new Map() };
		runs.set(ctx, run);
	}
	return run;
}

/** What the run's items share under `name`, made by `make` at its first use in the run. */
export function sharedInRun<T>(ctx: object, name: string, make: () => T): T {
	const { shared } = runOf(ctx);
	if (!shared.has(name)) shared.set(name, make());
	// One module owns each name and always stores the same type under it.
	return shared.get(name) as T;
}

/** Whether a poll still has time for one more request (always, outside a poll). */
export function hasTime(ctx: object): boolean {
	return runOf(ctx).deadline?.allows(Date.now()) ?? true;
}
