import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { apiListPage } from '../../shared/transport';
import type { ListPage } from '../../shared/transport/paginate';
import type { FamilyPoll, PollRead } from '../family';
import { toItems } from '../family';
import { RecentKeys, SeenChanges } from './changes';
import type { Window } from './cursor';
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
import type { SourcesPass } from './read';
import {
	PAGES_PATH,
	readPageChanges,
	readReadySources,
	readSourcesPass,
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

/** First poll: the workspace's newest change (filters aside: a page may match later) starts it. */
async function startPages(ctx: IPollFunctions, settings: Settings, run: PollRead): Promise<Stream> {
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
	const read = await run.optional(readPageChanges(ctx, run, archived, from));
	const stream: Stream = { cursor: top, seen: new SeenChanges() };
	if (settings.filtered) stream.known = new RecentKeys();
	// No time to read the window: a floor, rather than a later, newer start that misses changes.
	if (!read?.complete) return { ...stream, floor: top };
	for (const row of read.rows) {
		const page = pageStamps(row);
		if (!page) continue;
		for (const [key, stamp] of pageKeys(page)) stream.seen.add(key, stamp);
		if (stream.known) for (const key of pageKnownKeys(page)) stream.known.touch(key);
		stream.cursor = maxStamp(stream.cursor ?? undefined, page.updated) as Stamp;
	}
	return pruneStream(stream);
}

/** A stream's part of a poll: its next state, its events, and whether the next poll goes on with it. */
interface StreamRead {
	stream: Stream;
	found: FoundEvent[];
	/** Work left besides the deadline's stops: a cut kept in `progress`, rows at the newest timestamp. */
	continues?: boolean;
}

/** The events of page rows in order, and the stream after them; `rowOf`: each event's row index. */
function applyPageRows(
	settings: Settings,
	stored: Stream,
	window: Window,
	rows: IDataObject[],
): { found: FoundEvent[]; rowOf: number[]; stream: Stream } {
	const seen = stored.seen.copy();
	const known = settings.filtered ? (stored.known?.copy() ?? new RecentKeys()) : undefined;
	const found: FoundEvent[] = [];
	const rowOf: number[] = [];
	let cursor = stored.cursor ?? undefined;
	rows.forEach((row, index) => {
		const page = pageStamps(row);
		if (!page) return;
		const { events, keys } = pageChanges(page, seen, window, settings.filtered, known);
		if (!keys) return;
		for (const [key, stamp] of keys) seen.add(key, stamp);
		if (known) for (const key of pageKnownKeys(page)) known.touch(key);
		cursor = maxStamp(cursor, page.updated);
		for (const event of events) {
			if (!settings.events.has(event)) continue;
			found.push({ event, stamp: page.updated, kind: 'page', row });
			rowOf.push(index);
		}
	});
	const stream: Stream = { cursor: cursor ?? null, seen };
	if (known) stream.known = known;
	if (stored.floor !== undefined) stream.floor = stored.floor;
	return { found, rowOf, stream };
}

async function pollPages(
	ctx: IPollFunctions,
	settings: Settings,
	stored: Stream,
	run: PollRead,
): Promise<StreamRead> {
	const resume = stored.progress;
	// A read going on from an earlier poll keeps its window: its rows are judged as in one poll.
	const window: Window = resume
		? { from: resume.since ?? resume.from, after: stored.floor }
		: windowOf(stored);
	const read = await readPageChanges(
		ctx,
		run,
		settings.pageFilters,
		lowerBound(window),
		stored.newest,
		resume,
	);
	let progress = read.complete ? undefined : read.cut;
	// A cut read through over polls: the next read lists what came after it.
	if (!progress && resume && resume.page > 0 && read.cut) progress = { ...read.cut, page: 0 };
	// The list moved under the cut: the reads after it keep the mark until the window is read again.
	const moved = resume?.unsettled === true;
	if (progress && moved) progress = { ...progress, unsettled: true };
	let applied = applyPageRows(settings, stored, window, read.rows);
	if (settings.fetchFull && applied.found.length > 0) {
		// Cut before the first row the deadline left without its record; go on from its list page.
		const full = await withRecords(ctx, applied.found);
		if (full.length < applied.found.length) {
			const row = applied.rowOf[full.length];
			const page = read.pageOf[row];
			if (page > 0 && read.cut) progress = { ...read.cut, page };
			applied = applyPageRows(settings, stored, window, read.rows.slice(0, row));
		}
		applied.found = full.slice(0, applied.found.length);
	}
	const { stream, found } = applied;
	// A new cut after one read through (above its `upper`) is judged from where the first one began.
	if (progress && resume && window.from !== undefined && window.from !== progress.from)
		progress = { ...progress, since: window.from };
	if (progress) {
		stream.progress = progress;
		const from = progress.since ?? progress.from;
		if (from !== undefined) stream.from = from;
	} else if (moved || !read.settled) {
		// The list moved under the read: the next one starts where this one did.
		const from = resume ? resume.from : window.from;
		if (from !== undefined) stream.from = from;
	}
	if (read.newest !== undefined) stream.newest = read.newest;
	const continues = progress !== undefined || read.waiting === true;
	const done: StreamRead = { stream: pruneStream(stream), found, continues };
	// A cut read through in this poll: what came after it is read now if time is left.
	if (progress?.page === 0 && !run.deadline.stopped && resume && resume.page > 0) {
		const after = await run.step(pollPages(ctx, settings, done.stream, run));
		if (after) return { ...after, found: [...found, ...after.found] };
	}
	return done;
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
): Promise<StreamRead> {
	// One request when page 1 is unchanged; a change it hides waits in the window (the cursor stays).
	let from: SourcesPass | ListPage<IDataObject> | undefined = stored.pass;
	if (!from) {
		const first = await readySourcesFirstPage(ctx, settings.sourceFilters);
		if (stored.digest === sourcesDigest(first)) return { stream: stored, found: [] };
		from = first;
	}
	// Over several polls if need be; the cursor moves only once the list is read through.
	const read = await readSourcesPass(ctx, settings.sourceFilters, from);
	const window = windowOf(stored);
	const seen = stored.seen.copy();
	const fresh: FoundEvent[] = [];
	let newest = read.pass.newest;
	for (const row of read.rows) {
		const stamp = readyStamp(row);
		if (stamp === undefined || !inWindow(window, stamp)) continue;
		const id = row.id as string;
		if (sourceIsNew(id, stamp, seen, window))
			fresh.push({ event: 'sourceReady', stamp, kind: 'source', row });
		seen.add(sourceReadyKey(id, stamp), stamp);
		newest = maxStamp(newest, stamp);
	}
	if (settings.fetchFull && fresh.length > 0) {
		const ordered = byTime(fresh);
		const found = await withRecords(ctx, ordered);
		if (found.length < ordered.length) {
			// The deadline came first: the rest stay unseen in the window for the next poll.
			const partial = stored.seen.copy();
			for (const f of found) partial.add(sourceReadyKey(f.row.id as string, f.stamp), f.stamp);
			const stream: Stream = { ...stored, seen: partial };
			delete stream.digest;
			return { stream: pruneStream(stream), found };
		}
		fresh.splice(0, fresh.length, ...found);
	}
	const pass: SourcesPass = { ...read.pass };
	if (newest !== undefined) pass.newest = newest;
	const stream: Stream = { ...stored, seen };
	delete stream.pass;
	if (!read.complete) {
		stream.pass = pass;
		delete stream.digest;
		return { stream: pruneStream(stream), found: fresh };
	}
	// Rows moved under the pass: read it again from a cursor that did not move.
	if (pass.moved) delete stream.digest;
	else {
		stream.cursor = maxStamp(stored.cursor ?? undefined, newest) ?? null;
		stream.digest = pass.digest;
	}
	return { stream: pruneStream(stream), found: fresh };
}

// ---------- the poll ----------

/** One read of the chosen streams; each stops at the deadline on its own and keeps its progress. */
async function read(
	ctx: IPollFunctions,
	settings: Settings,
	stored: TriggerState,
	run: PollRead,
): Promise<{ state: TriggerState; items: INodeExecutionData[] }> {
	const next: TriggerState = { v: STATE_VERSION };
	const found: FoundEvent[] = [];
	let waiting = false;
	const readStream = async (
		kind: 'pages' | 'sources',
		poll: typeof pollPages,
		start: typeof startPages,
	) => {
		const kept = stored[kind];
		const result = (await run.step(
			kept
				? poll(ctx, settings, kept, run)
				: start(ctx, settings, run).then((stream) => ({ stream, found: [] })),
		)) ?? { stream: kept, found: [], continues: false };
		if (result.stream) next[kind] = result.stream;
		found.push(...result.found);
		waiting ||= result.continues === true;
	};
	const readPages = async () => await readStream('pages', pollPages, startPages);
	const readSources = async () => await readStream('sources', pollSources, startSources);
	const both = wantsPages(settings) && wantsSources(settings);
	// Over polls the streams take turns; activation starts sources first (they have no time filter).
	const first = stored.first ?? (stored.pages || stored.sources ? 'pages' : 'sources');
	const sourcesFirst = both && first === 'sources';
	// Sources went first and were read through: the pages get this poll.
	const sourcesRested = both && stored.first === 'pages' && stored.sources?.pass === undefined;
	if (sourcesFirst) await readSources();
	if (wantsPages(settings)) await readPages();
	if (sourcesRested && stored.sources) next.sources = stored.sources;
	else if (wantsSources(settings) && !sourcesFirst) await readSources();
	const continues = waiting || run.deadline.stopped;
	if (continues && both) next.first = sourcesFirst ? 'pages' : 'sources';
	if (waiting) next.continues = true;
	return { state: next, items: toItems(byTime(found)) };
}

export const knowledgeHubPoll: FamilyPoll<Settings, TriggerState> = {
	readSettings,
	sample: manualSample,
	noSample,
	readState: (staticData) => readState(staticData),
	read,
};
