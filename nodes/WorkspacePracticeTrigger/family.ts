import type {
	IDataObject,
	IDisplayOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mayRead, noteRead, readGapMs } from './readInterval';
import type { WorkingHours } from './workingHours';

/**
 * What a family of events (Knowledge Hub, Practice Results...) gives the trigger. A family is a folder
 * whose index.ts exports one of these; families.ts lists them. Every family polls in the same order
 * (`pollFamily`) and keeps its state the same way: one object in the node's static data, read by its
 * own state.ts and written here once per poll.
 */
export interface TriggerFamily {
	/** Its entry in Trigger On. */
	option: INodePropertyOptions;
	/** The family's multi-select of events and their names, for the canvas subtitle. */
	eventsParameter: string;
	events: Record<string, string>;
	/** Its fields, each shown by `shownFor(option.value)`. */
	properties: INodeProperties[];
	poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null>;
}

/** The one way a family's fields are shown: only while Trigger On names the family. */
export const shownFor = (family: string): IDisplayOptions => ({ show: { triggerOn: [family] } });

/** What every family keeps in the static data: its format (`v`) and when it last read (readInterval.ts). */
export interface FamilyState {
	v: number | string;
	readAt?: number;
}

/** The parts of one family's poll, run by `pollFamily`. */
export interface FamilyPoll<
	Settings extends { minReadMinutes: number; schedule?: WorkingHours },
	State extends FamilyState,
> {
	/** The form, checked before any request. */
	readSettings(ctx: IPollFunctions): Settings;
	/** A manual run ("Fetch Test Event"): the most recent match, to map fields; the state is left alone. */
	sample(ctx: IPollFunctions, settings: Settings): Promise<INodeExecutionData[][]>;
	/** The stored state when it is this family's (and built for these settings), a fresh one otherwise. */
	readState(staticData: IDataObject, settings: Settings): State;
	/** One read from `stored`: the state to keep (with `readAt`) and the items found, in output order. */
	read(
		ctx: IPollFunctions,
		settings: Settings,
		stored: State,
		readAt: number,
	): Promise<{ state: State; items: INodeExecutionData[] }>;
}

/**
 * One poll of a family. Everything is read first; the state is written only after every request
 * succeeded, so a failed poll emits nothing and leaves the state as it was.
 */
export async function pollFamily<
	Settings extends { minReadMinutes: number; schedule?: WorkingHours },
	State extends FamilyState,
>(
	ctx: IPollFunctions,
	family: FamilyPoll<Settings, State>,
): Promise<INodeExecutionData[][] | null> {
	const settings = family.readSettings(ctx);
	if (ctx.getMode() === 'manual') return await family.sample(ctx, settings);

	const staticData = ctx.getWorkflowStaticData('node');
	if (!mayRead(ctx, staticData, readGapMs(ctx, settings))) return null;
	const stored = family.readState(staticData, settings);
	const { state, items } = await family.read(ctx, settings, stored, noteRead(ctx));
	writeState(staticData, state);
	return items.length > 0 ? [items] : null;
}

/**
 * Replaces the static data with the new state, in place (n8n watches that object). An unchanged state
 * is left untouched so nothing is saved for it.
 */
function writeState(staticData: IDataObject, state: FamilyState): void {
	const next = JSON.parse(JSON.stringify(state)) as IDataObject;
	const current: IDataObject = {};
	for (const [key, value] of Object.entries(staticData)) current[key] = value;
	if (JSON.stringify(current) === JSON.stringify(next)) return;
	for (const key of Object.keys(staticData)) if (!(key in next)) delete staticData[key];
	Object.assign(staticData, next);
}

/** A family's chosen events, checked: at least one, each one the family knows. */
export function readEvents<Event extends string>(
	ctx: IPollFunctions,
	parameter: string,
	events: Record<Event, string>,
	noun: string,
): Set<Event> {
	const raw = ctx.getNodeParameter(parameter, []) as unknown;
	const chosen = (Array.isArray(raw) ? raw : [raw]).map(String);
	const unknown = chosen.filter((event) => !(event in events));
	if (chosen.length === 0 || unknown.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			chosen.length === 0
				? `Events: choose at least one ${noun}`
				: `Events: unknown event "${unknown[0]}"`,
			{ description: `Allowed: ${Object.keys(events).join(', ')}.` },
		);
	}
	return new Set(chosen as Event[]);
}
