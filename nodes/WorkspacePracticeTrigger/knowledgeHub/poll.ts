import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { apiListPage } from '../../shared/transport';
import type { FamilyPoll } from '../family';
import { toItems } from '../family';
import { RecentKeys, SeenChanges } from './changes';
import { inWindow, lowerBound, OVERLAP_MS, pruneStream, windowOf } from './cursor';
import type { FoundEvent } from './events';
import {
	pageChanges,
	pageKeys,
	pageKnownKeys,
	pageStamps,
	readyStamp,
	sourceIsNew,
} from './events';
import { byTime, withRecords } from './items';
import { sourceReadyKey } from './keys';
import {
	Budget,
	PAGES_PATH,
	readPageChanges,
	readReadySources,
	readySourcesFirstPage,
	sourcesDigest,
} from './read';
import { manualSample, noSample } from './sample';
import type { Settings } from './settings';
import { readSettings, wantsPages, wantsSources } from './settings';
import type { Stream, TriggerState } from './state';
import { readState, STATE_VERSION } from './state';
import type { Stamp } from './timestamps';
import { maxStamp, shiftStamp, toStamp } from './timestamps';

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
	if (settings.filtered) stream.known = new RecentKeys();
	for (const row of rows) {
		const page = pageStamps(row);
		if (!page) continue;
		for (const [key, stamp] of pageKeys(page)) stream.seen.add(key, stamp);
		if (stream.known) for (const key of pageKnownKeys(page)) stream.known.touch(key);
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
	const known = settings.filtered ? (stored.known?.copy() ?? new RecentKeys()) : undefined;
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
		const { events, keys } = pageChanges(page, seen, window, settings.filtered, known);
		if (!keys) continue;
		for (const [key, stamp] of keys) seen.add(key, stamp);
		if (known) for (const key of pageKnownKeys(page)) known.touch(key);
		cursor = maxStamp(cursor, page.updated);
		for (const event of events) {
			if (settings.events.has(event)) found.push({ event, stamp: page.updated, kind: 'page', row });
		}
	}
	const stream: Stream = { cursor: cursor ?? null, seen };
	if (known) stream.known = known;
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

// ---------- the poll ----------

/**
 * One read of the chosen streams (pages, sources). The first read of a stream only takes its starting
 * point and emits nothing from the past.
 */
async function read(
	ctx: IPollFunctions,
	settings: Settings,
	stored: TriggerState,
): Promise<{ state: TriggerState; items: INodeExecutionData[] }> {
	const next: TriggerState = { v: STATE_VERSION };
	const found: FoundEvent[] = [];
	const budget = Budget.of(ctx);

	if (wantsPages(settings)) {
		const result = stored.pages
			? await pollPages(ctx, settings, stored.pages, budget)
			: { stream: await startPages(ctx, settings), found: [] };
		next.pages = result.stream;
		found.push(...result.found);
	}
	if (wantsSources(settings)) {
		const result = stored.sources
			? await pollSources(ctx, settings, stored.sources)
			: { stream: await startSources(ctx, settings), found: [] };
		next.sources = result.stream;
		found.push(...result.found);
	}

	return { state: next, items: toItems(await withRecords(ctx, byTime(found), settings.fetchFull)) };
}

/** Knowledge Hub Changes, as the trigger runs every family (family.ts). */
export const knowledgeHubPoll: FamilyPoll<Settings, TriggerState> = {
	readSettings,
	sample: manualSample,
	noSample,
	readState: (staticData) => readState(staticData),
	read,
};
