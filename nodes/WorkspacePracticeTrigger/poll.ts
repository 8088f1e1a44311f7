import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { locatorValue } from '../shared/fields/locator';
import { optionalMember } from '../shared/fields/member.locator';
import { apiListPage, apiRequest, mapWithConcurrency, MAX_PAGE_SIZE } from '../shared/transport';
import { validator } from '../shared/validate';
import { compact } from '../shared/values';
import { SeenChanges } from './changes';
import type { Stream, TriggerState } from './cursor';
import {
	inWindow,
	lowerBound,
	OVERLAP_MS,
	pruneStream,
	readState,
	STATE_VERSION,
	windowOf,
	writeState,
} from './cursor';
import type { FoundEvent, TriggerEvent } from './events';
import {
	EVENTS,
	PAGE_EVENTS,
	pageChanges,
	pageKeys,
	pageStamps,
	readyStamp,
	sourceIsNew,
} from './events';
import { sourceReadyKey } from './keys';
import {
	Budget,
	PAGES_PATH,
	readPageChanges,
	readReadySources,
	readySourcesFirstPage,
	SOURCES_PATH,
	sourcesDigest,
} from './read';
import type { Stamp } from './timestamps';
import { maxStamp, shiftStamp, toStamp } from './timestamps';
import { DEFAULT_MIN_READ_MINUTES, mayRead, noteRead } from './pacing';

interface Settings {
	events: Set<TriggerEvent>;
	pageFilters: IDataObject;
	sourceFilters: IDataObject;
	fetchFull: boolean;
	/** Whether any page filter is set (see the first-sight rule in events.ts). */
	filtered: boolean;
	minReadMinutes: number;
}

const DETAIL_CONCURRENCY = 4;

/** The form, checked before any request. */
function readSettings(ctx: IPollFunctions): Settings {
	const check = validator(ctx, 0);
	const raw = ctx.getNodeParameter('events', []) as unknown;
	const chosen = (Array.isArray(raw) ? raw : [raw]).map(String);
	const unknown = chosen.filter((event) => !(event in EVENTS));
	if (chosen.length === 0 || unknown.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			chosen.length === 0
				? 'Events: choose at least one event'
				: `Events: unknown event "${unknown[0]}"`,
			{
				description: `Allowed: ${Object.keys(EVENTS).join(', ')}.`,
			},
		);
	}
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	const folder = locatorValue(filters.folder);
	const skill = locatorValue(filters.skill);
	const owner = optionalMember(check, 'Filters → Owner', filters.owner, 'id');
	const title = typeof filters.titleContains === 'string' ? filters.titleContains.trim() : '';
	const common = compact({
		folder_id: folder ? check.uuid('Filters → Folder', folder) : undefined,
		query: title,
	});
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	return {
		events: new Set(chosen as TriggerEvent[]),
		pageFilters: compact({
			...common,
			owner_id: owner,
			skill_id: skill ? check.uuid('Filters → Skill', skill) : undefined,
			status: typeof filters.status === 'string' ? filters.status : undefined,
		}),
		sourceFilters: common,
		fetchFull: options.fetchFull === true,
		filtered: Boolean(folder || owner || skill || title || typeof filters.status === 'string'),
		minReadMinutes: check.intRange(
			'Options → Minutes Between Reads',
			options.minReadMinutes ?? DEFAULT_MIN_READ_MINUTES,
			0,
			1440,
		),
	};
}

const wantsPages = (s: Settings) => PAGE_EVENTS.some((event) => s.events.has(event));
const wantsSources = (s: Settings) => s.events.has('sourceReady');

// ---------- pages ----------

/**
 * First poll: the newest change in the whole workspace (filters aside, so a page that matches them
 * only later is not mistaken for a new one) is the starting point, and every page inside the overlap
 * window before it counts as already seen.
 */
async function startPages(ctx: IPollFunctions, settings: Settings): Promise<Stream> {
	const archived = settings.pageFilters.status === 'archived' ? { status: 'archived' } : {};
	const newest = await apiListPage<IDataObject>(
		ctx,
		PAGES_PATH,
		{ ...archived, sort: 'updated_at' },
		1,
		1,
	);
	const top = toStamp(newest.data[0]?.updated_at);
	if (top === undefined) return { cursor: null, seen: new SeenChanges() };
	const from = shiftStamp(top, -OVERLAP_MS);
	const { rows } = await readPageChanges(ctx, archived, from, Budget.unlimited(), () => true);
	const stream: Stream = { cursor: top, seen: new SeenChanges() };
	for (const row of rows) {
		const page = pageStamps(row);
		if (!page) continue;
		for (const [key, stamp] of pageKeys(page)) stream.seen.add(key, stamp);
		stream.cursor = maxStamp(stream.cursor ?? undefined, page.updated) as Stamp;
	}
	return pruneStream(stream);
}

async function pollPages(
	ctx: IPollFunctions,
	settings: Settings,
	stored: Stream,
	budget: Budget,
): Promise<{ stream: Stream; found: FoundEvent[] }> {
	const window = windowOf(stored);
	const seen = stored.seen.copy();
	const isNew = (row: IDataObject) => {
		const page = pageStamps(row);
		return page !== undefined && pageChanges(page, seen, window).events.length > 0;
	};
	const read = await readPageChanges(
		ctx,
		settings.pageFilters,
		lowerBound(window),
		budget,
		isNew,
		stored.newest,
	);
	const found: FoundEvent[] = [];
	let cursor = stored.cursor ?? undefined;
	for (const row of read.rows) {
		const page = pageStamps(row);
		if (!page) continue;
		const { events, keys } = pageChanges(page, seen, window, settings.filtered);
		if (!keys) continue;
		for (const [key, stamp] of keys) seen.add(key, stamp);
		cursor = maxStamp(cursor, page.updated);
		for (const event of events) {
			if (settings.events.has(event)) found.push({ event, stamp: page.updated, kind: 'page', row });
		}
	}
	const stream: Stream = { cursor: cursor ?? null, seen };
	if (stored.floor !== undefined) stream.floor = stored.floor;
	// A read the list moved under keeps this poll's starting point for the next one.
	if (!read.settled && window.from !== undefined) stream.from = window.from;
	if (read.newest !== undefined) stream.newest = read.newest;
	return { stream: pruneStream(stream), found };
}

// ---------- sources ----------

/** First poll: the latest processed_at among ready sources is the starting point. */
async function startSources(ctx: IPollFunctions, settings: Settings): Promise<Stream> {
	const first = await readySourcesFirstPage(ctx, {});
	const rows = await readReadySources(ctx, {}, first);
	const stream: Stream = { cursor: null, seen: new SeenChanges() };
	// Without filters the polls read this same list: its digest spares them a full read next time.
	if (Object.keys(settings.sourceFilters).length === 0) stream.digest = sourcesDigest(first);
	for (const row of rows) {
		const stamp = readyStamp(row);
		if (stamp === undefined) continue;
		stream.cursor = maxStamp(stream.cursor ?? undefined, stamp) as Stamp;
		stream.seen.add(sourceReadyKey(row.id as string, stamp), stamp);
	}
	return pruneStream(stream);
}

async function pollSources(
	ctx: IPollFunctions,
	settings: Settings,
	stored: Stream,
): Promise<{ stream: Stream; found: FoundEvent[] }> {
	// One request when nothing changed: the first page looks as it did at the last full read. A change
	// it cannot show (one source archived and another made ready further down, in one interval) waits
	// for the next read whose first page differs; the cursor does not move meanwhile, so it is not lost.
	const first = await readySourcesFirstPage(ctx, settings.sourceFilters);
	const digest = sourcesDigest(first);
	if (stored.digest === digest) return { stream: stored, found: [] };
	const window = windowOf(stored);
	const rows = await readReadySources(ctx, settings.sourceFilters, first);
	const seen = stored.seen.copy();
	const fresh: FoundEvent[] = [];
	let cursor = stored.cursor ?? undefined;
	for (const row of rows) {
		const stamp = readyStamp(row);
		if (stamp === undefined || !inWindow(window, stamp)) continue;
		const id = row.id as string;
		if (sourceIsNew(id, stamp, seen, window))
			fresh.push({ event: 'sourceReady', stamp, kind: 'source', row });
		seen.add(sourceReadyKey(id, stamp), stamp);
		cursor = maxStamp(cursor, stamp);
	}
	const stream: Stream = { ...stored, cursor: cursor ?? null, seen, digest };
	return { stream: pruneStream(stream), found: fresh };
}

// ---------- output ----------

/** Full records, one request per distinct page or source, when the option asks for them. */
async function fullRecords(
	ctx: IPollFunctions,
	found: FoundEvent[],
): Promise<Map<string, IDataObject>> {
	const wanted = [...new Map(found.map((f) => [`${f.kind}:${String(f.row.id)}`, f])).entries()];
	const records = await mapWithConcurrency(wanted, DETAIL_CONCURRENCY, async ([, f]) => {
		const id = encodeURIComponent(String(f.row.id));
		const { body } =
			f.kind === 'page'
				? await apiRequest<IDataObject>(ctx, {
						method: 'GET',
						path: `${PAGES_PATH}/${id}`,
						what: `page ${String(f.row.id)}`,
					})
				: await apiRequest<IDataObject>(ctx, {
						method: 'GET',
						path: `${SOURCES_PATH}/${id}`,
						qs: { include: 'content' },
						what: `source ${String(f.row.id)}`,
					});
		return body;
	});
	return new Map(wanted.map(([key], index) => [key, records[index]]));
}

async function toItems(
	ctx: IPollFunctions,
	found: FoundEvent[],
	fetchFull: boolean,
): Promise<INodeExecutionData[]> {
	const full = fetchFull ? await fullRecords(ctx, found) : undefined;
	return found.map((f) => {
		const record = full?.get(`${f.kind}:${String(f.row.id)}`) ?? f.row;
		return { json: { event: f.event, [f.kind]: record } };
	});
}

/** Oldest change first; pages before sources at the same instant; a page's own events in form order. */
function byTime(found: FoundEvent[]): FoundEvent[] {
	return found
		.map((f, index) => ({ f, index }))
		.sort((a, b) => (a.f.stamp < b.f.stamp ? -1 : a.f.stamp > b.f.stamp ? 1 : a.index - b.index))
		.map(({ f }) => f);
}

// ---------- manual run ----------

/** The event a sample page stands for: its latest change among the chosen events. */
function sampleEvent(row: IDataObject, events: Set<TriggerEvent>): TriggerEvent | undefined {
	const page = pageStamps(row);
	if (!page) return undefined;
	const published = page.version !== null && page.published !== undefined;
	if (events.has('pagePublished') && published && page.published === page.updated)
		return 'pagePublished';
	if (events.has('pageUpdated') && page.updated > page.created) return 'pageUpdated';
	if (events.has('pageCreated')) return 'pageCreated';
	if (events.has('pagePublished') && published) return 'pagePublished';
	if (events.has('pageUpdated')) return 'pageUpdated';
	return undefined;
}

/**
 * A manual run ("Fetch Test Event") shows the most recent matching page or source, so fields can be
 * mapped; it reads nothing into the trigger's position.
 */
async function manualSample(
	ctx: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[][]> {
	const candidates: FoundEvent[] = [];
	if (wantsPages(settings)) {
		const { data } = await apiListPage<IDataObject>(
			ctx,
			PAGES_PATH,
			{ ...settings.pageFilters, sort: 'updated_at' },
			1,
			MAX_PAGE_SIZE,
		);
		for (const row of data) {
			const event = sampleEvent(row, settings.events);
			if (event) {
				candidates.push({ event, stamp: pageStamps(row)!.updated, kind: 'page', row });
				break;
			}
		}
	}
	if (wantsSources(settings)) {
		const { data } = await apiListPage<IDataObject>(
			ctx,
			SOURCES_PATH,
			{ ...settings.sourceFilters, status: 'ready' },
			1,
			MAX_PAGE_SIZE,
		);
		const ready = data
			.map((row) => ({ row, stamp: readyStamp(row) }))
			.filter((r): r is { row: IDataObject; stamp: Stamp } => r.stamp !== undefined)
			.sort((a, b) => (a.stamp < b.stamp ? 1 : a.stamp > b.stamp ? -1 : 0));
		if (ready[0])
			candidates.push({
				event: 'sourceReady',
				stamp: ready[0].stamp,
				kind: 'source',
				row: ready[0].row,
			});
	}
	const latest = candidates.sort((a, b) => (a.stamp < b.stamp ? 1 : a.stamp > b.stamp ? -1 : 0))[0];
	if (!latest) {
		const chosen = [...settings.events].map((event) => EVENTS[event]).join(', ');
		throw new NodeOperationError(
			ctx.getNode(),
			'No Knowledge Hub page or source matches this trigger yet',
			{
				description: `The test run shows the most recent match for ${chosen} with the current Filters, and there is none. Create or publish a matching page (or widen the Filters), then fetch a test event again.`,
			},
		);
	}
	return [await toItems(ctx, [latest], settings.fetchFull)];
}

// ---------- the poll ----------

/**
 * One poll. Everything is read first; the new position is written to the static data only after every
 * request succeeded, so an error emits nothing and leaves the position where it was. The first poll of
 * a stream only takes its starting point and emits nothing from the past.
 */
export async function pollTrigger(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	if (this.getMode() === 'manual') return await manualSample(this, settings);

	const staticData = this.getWorkflowStaticData('node');
	if (!mayRead(this, staticData, settings.minReadMinutes)) return null;
	const stored = readState(staticData);
	const next: TriggerState = { v: STATE_VERSION, readAt: noteRead(this) };
	const found: FoundEvent[] = [];
	const budget = Budget.of(this);

	if (wantsPages(settings)) {
		if (stored.pages) {
			const result = await pollPages(this, settings, stored.pages, budget);
			next.pages = result.stream;
			found.push(...result.found);
		} else {
			next.pages = await startPages(this, settings);
		}
	}
	if (wantsSources(settings)) {
		if (stored.sources) {
			const result = await pollSources(this, settings, stored.sources);
			next.sources = result.stream;
			found.push(...result.found);
		} else {
			next.sources = await startSources(this, settings);
		}
	}

	const items = await toItems(this, byTime(found), settings.fetchFull);
	writeState(staticData, next);
	return items.length > 0 ? [items] : null;
}
