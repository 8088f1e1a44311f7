import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiRequest, mapWithConcurrency } from '../../shared/transport';
import type { FoundEvent } from './events';
import { PAGES_PATH, SOURCES_PATH } from './read';

const DETAIL_CONCURRENCY = 4;

/** The full record of an event's page or source. */
async function fetchRecord(ctx: IPollFunctions, f: FoundEvent): Promise<IDataObject> {
	const id = encodeURIComponent(String(f.row.id));
	const page = f.kind === 'page';
	const { body } = await apiRequest<IDataObject>(ctx, {
		method: 'GET',
		path: `${page ? PAGES_PATH : SOURCES_PATH}/${id}`,
		qs: page ? undefined : { include: 'content' },
		what: `${f.kind} ${String(f.row.id)}`,
	});
	return body;
}

/** Which record an event carries: its kind and id. */
const recordKey = (f: FoundEvent): string => `${f.kind}:${String(f.row.id)}`;

/**
 * The events with their full records in place of the list rows (one request per distinct page or
 * source, 4 at a time), up to the first the poll's deadline left without its record.
 */
export async function withRecords(ctx: IPollFunctions, found: FoundEvent[]): Promise<FoundEvent[]> {
	const wanted = [...new Map(found.map((f) => [recordKey(f), f])).entries()];
	const records = await mapWithConcurrency(
		wanted,
		DETAIL_CONCURRENCY,
		async ([, f]) => await fetchRecord(ctx, f),
		{ untilDeadline: true },
	);
	const full = new Map(records.map((record, index) => [wanted[index][0], record]));
	const missing = found.findIndex((f) => !full.has(recordKey(f)));
	const kept = missing === -1 ? found : found.slice(0, missing);
	return kept.map((f) => ({ ...f, row: full.get(recordKey(f)) ?? f.row }));
}

/** Oldest change first; pages before sources at the same instant; a page's own events in form order. */
export function byTime(found: FoundEvent[]): FoundEvent[] {
	return found
		.map((f, index) => ({ f, index }))
		.sort((a, b) => (a.f.stamp < b.f.stamp ? -1 : a.f.stamp > b.f.stamp ? 1 : a.index - b.index))
		.map(({ f }) => f);
}
