/**
 * Shared set-up for the action tests: one simulator per test file on a ManualClock, its state reset
 * before each test, and a runner that drives our node through the real engine against it.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ManualClock, startSimulator } from '../../simulator';
import type { Control, RunningSimulator, SimulatorOptions } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';
import type { RunNodeOptions, RunNodeResult } from '../../n8n-harness/runNode';

export interface ActionSimulator {
	/** The running simulator's control surface: recorded requests, reset, faults. */
	readonly control: Control;
	/** Runs the node with these parameters (`resource` preset when given to `useSimulator`). */
	run: (parameters: INodeParameters, options?: Partial<RunNodeOptions>) => Promise<RunNodeResult>;
}

/** Registers the file's simulator hooks; call it at the top level of a test file. */
export function useSimulator(resource?: string, options: SimulatorOptions = {}): ActionSimulator {
	let sim: RunningSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ clock: new ManualClock(), ...options });
	});
	afterAll(async () => await sim.close());
	beforeEach(() => sim.control.reset());
	return {
		get control() {
			return sim.control;
		},
		run: async (parameters, runOptions = {}) =>
			await runNode({
				parameters: resource === undefined ? parameters : { resource, ...parameters },
				credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
				...runOptions,
			}),
	};
}

/** A resource locator value as the editor stores it. */
export const rl = (value: string, mode: 'list' | 'id' = 'list') => ({ __rl: true, mode, value });

/** The JSON of each output item. */
export const json = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json);

/** A Members filter as the editor stores it: one row per member locator ([value, mode]). */
export const memberRows = (...rows: Array<[value: string, mode: 'list' | 'email' | 'id']>) => ({
	member: rows.map(([value, mode]) => ({ member: { __rl: true, mode, value } })),
});
