import type {
	IDataObject,
	IDisplayOptions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { Deadline, POLL_PACE, startRun, untilDeadline } from '../shared/transport';
import { listEntries } from '../shared/validate';
import { mayRead, refundRead, spendRead } from './quota';
import { begin, end } from './readGuard';

/** What a family of events gives the trigger (families.ts lists them). */
export interface TriggerFamily {
	/** Its entry in Trigger On. */
	option: INodePropertyOptions;
	/** Its multi-select of events and their names, for the canvas subtitle. */
	eventsParameter: string;
	events: Record<string, string>;
	/** Its fields, each shown by `shownFor(option.value)`. */
	properties: INodeProperties[];
	poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null>;
}

/** The one way a family's fields are shown: only while Trigger On names the family. */
export const shownFor = (family: string): IDisplayOptions => ({ show: { triggerOn: [family] } });

/** What every family keeps in the static data: its format (`v`) and its read quota (quota.ts). */
export interface FamilyState {
	v: number | string;
	quotaEmptyAt?: number;
	/** The deadline stopped the last read: the next poll goes on without spending a read. */
	continues?: true;
}

/** What every family's settings hold for `pollFamily`: Options → Max Reads a Day (0: no limit). */
export interface FamilySettings {
	maxReadsPerDay: number;
	/** Reads the quota holds at activation; unset: one read, then one a refill. */
	quotaStartReads?: number;
}

/** The parts of one family's poll, run by `pollFamily`. */
export interface FamilyPoll<Settings extends FamilySettings, State extends FamilyState> {
	/** The form, checked before any request. */
	readSettings(ctx: IPollFunctions): Settings;
	/** A manual run ("Fetch Test Event"): the most recent match; the state is left alone. */
	sample(ctx: IPollFunctions, settings: Settings): Promise<INodeExecutionData[]>;
	/** What a manual run with no match says: what there is none of, and what to do. */
	noSample(settings: Settings): { what: string; hint: string };
	/** The stored state when it is this family's (and built for these settings), a fresh one otherwise. */
	readState(staticData: IDataObject, settings: Settings): State;
	/**
	 * One read from `stored`: the state to keep and the items. A part the deadline stops leaves its
	 * progress in the state; `pollFamily` marks it `continues` (the family may too: work left over).
	 */
	read(
		ctx: IPollFunctions,
		settings: Settings,
		stored: State,
		run: PollRead,
	): Promise<{ state: State; items: INodeExecutionData[] }>;
}

/** One poll's read, handed to the family: when it began, its deadline, and how a part stops there. */
export interface PollRead {
	/** When the poll began (epoch ms). */
	readonly at: number;
	/** The transport refuses a request it leaves no time for, and says so in `stopped`. */
	readonly deadline: Deadline;
	/** What `work` gives, or undefined when the deadline stopped it: the part goes on at the next poll. */
	step<T>(work: Promise<T>): Promise<T | undefined>;
	/** As `step`, for work the read may drop: what it leaves undone is no reason to go on next poll. */
	optional<T>(work: Promise<T>): Promise<T | undefined>;
}

/** What n8n lets a poll take: n8n 2.x says (36 s under its durable scheduler); 1.x has no limit. */
const pollBudgetMs = (ctx: IPollFunctions): number =>
	typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : 5 * 60_000;

/**
 * One poll of a family: state written only on success; one read at a time per trigger, never from a
 * state older than the last read's (readGuard.ts).
 */
export async function pollFamily<Settings extends FamilySettings, State extends FamilyState>(
	ctx: IPollFunctions,
	family: FamilyPoll<Settings, State>,
): Promise<INodeExecutionData[][] | null> {
	const settings = family.readSettings(ctx);
	if (ctx.getMode() === 'manual') {
		const items = await family.sample(ctx, settings);
		if (items.length > 0) return [items];
		const { what, hint } = family.noSample(settings);
		throw new NodeOperationError(ctx.getNode(), `No recent ${what} to show`, {
			description: `The test run shows the most recent match, and there is none. ${hint}`,
		});
	}

	const key = `${String(ctx.getWorkflow().id)}:${ctx.getNode().id}`;
	const staticData = ctx.getWorkflowStaticData('node');
	const at = Date.now();
	const from = begin(key, staticData, at);
	if (from === undefined) return null;
	let inBudget = false;
	try {
		const read = await readOnce(ctx, family, settings, staticData, at);
		inBudget = read.inBudget;
		return read.emitted;
	} finally {
		end(key, from, staticData, Date.now(), inBudget);
	}
}

/** What one read gives n8n, and whether it ended inside its poll budget (else n8n may drop it). */
interface ReadOutcome {
	emitted: INodeExecutionData[][] | null;
	inBudget: boolean;
}

async function readOnce<Settings extends FamilySettings, State extends FamilyState>(
	ctx: IPollFunctions,
	family: FamilyPoll<Settings, State>,
	settings: Settings,
	staticData: IDataObject,
	now: number,
): Promise<ReadOutcome> {
	const stored = family.readState(staticData, settings);
	const continues = stored.continues === true;
	// Only the read that stops early says so again: a state carried forward must not keep the mark.
	delete stored.continues;
	if (!continues && !mayRead(ctx, staticData, settings.maxReadsPerDay, now))
		return { emitted: null, inBudget: true };
	const quotaEmptyAt = continues
		? stored.quotaEmptyAt
		: spendRead(ctx, staticData, settings.maxReadsPerDay, now, settings.quotaStartReads);
	const budgetMs = pollBudgetMs(ctx);
	const deadline = Deadline.forPoll(budgetMs, now);
	// Every read on one pace: triggers on one key share its minute (pacer.ts), whatever their family.
	startRun(ctx, POLL_PACE, deadline);
	// The one place a stop at the deadline is caught: a step's, or the whole read's.
	const run: PollRead = {
		at: now,
		deadline,
		step: untilDeadline,
		async optional(work) {
			const { stopped } = deadline;
			const done = await untilDeadline(work);
			deadline.stopped = stopped;
			return done;
		},
	};
	// Out of time before the family could keep any progress: the next poll tries again, unspent.
	const { state, items } = (await run.step(family.read(ctx, settings, stored, run))) ?? {
		state: stored,
		items: [],
	};
	if (deadline.stopped) state.continues = true;
	const inBudget = Date.now() - now <= budgetMs;
	if (quotaEmptyAt !== undefined && !continues && !inBudget) refundRead(ctx, quotaEmptyAt);
	writeState(staticData, quotaEmptyAt === undefined ? state : { ...state, quotaEmptyAt });
	return { emitted: items.length > 0 ? [items] : null, inBudget };
}

/** Replaces the static data with the new state in place (n8n watches it); unchanged, it is left alone. */
function writeState(staticData: IDataObject, state: FamilyState): void {
	const next = JSON.parse(JSON.stringify(state)) as IDataObject;
	if (JSON.stringify({ ...staticData }) === JSON.stringify(next)) return;
	for (const key of Object.keys(staticData)) if (!(key in next)) delete staticData[key];
	Object.assign(staticData, next);
}

/** A copy of the stored state when it has this `version` (and `key`); else undefined: start over. */
export function storedState<State extends FamilyState>(
	staticData: IDataObject,
	version: State['v'],
	key?: string,
): State | undefined {
	if (staticData.v !== version) return undefined;
	if (key !== undefined && staticData.key !== key) return undefined;
	return JSON.parse(JSON.stringify(staticData)) as State;
}

/** One event found by a read: its value in Events, and the record under its kind ("page", "session"). */
export interface FoundRecord<Event extends string = string> {
	event: Event;
	kind: string;
	row: IDataObject;
}

/** The items a family emits: one per event, `{ event, <kind>: record }`, in the order given. */
export const toItems = (found: FoundRecord[]): INodeExecutionData[] =>
	found.map(({ event, kind, row }) => ({ json: { event, [kind]: row } }));

/**
 * A family's chosen events: at least one. Each is one the form offers (the node's poll checked that,
 * offered.ts); a list from an expression is read as offered.ts reads it.
 */
export function readEvents<Event extends string>(
	ctx: IPollFunctions,
	parameter: string,
	events: Record<Event, string>,
	noun: string,
): Set<Event> {
	const raw = ctx.getNodeParameter(parameter, []) as unknown;
	const chosen = (listEntries(raw) ?? [raw]).map(String);
	if (chosen.length === 0)
		throw new NodeOperationError(ctx.getNode(), `Events: choose at least one ${noun}`, {
			description: `Allowed: ${Object.keys(events).join(', ')}.`,
		});
	return new Set(chosen as Event[]);
}
