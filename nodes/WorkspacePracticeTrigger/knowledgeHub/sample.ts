import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { toItems } from '../family';

import { apiListPage, MAX_PAGE_SIZE } from '../../shared/transport';
import type { FoundEvent, TriggerEvent } from './events';
import { EVENTS, pageStamps, readyStamp } from './events';
import { withRecords } from './items';
import { PAGES_PATH, readySourcesFirstPage } from './read';
import type { Settings } from './settings';
import { wantsPages, wantsSources } from './settings';
import type { Stamp } from './timestamps';

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
export async function manualSample(
	ctx: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[]> {
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
		const { data } = await readySourcesFirstPage(ctx, settings.sourceFilters);
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
	return latest ? toItems(settings.fetchFull ? await withRecords(ctx, [latest]) : [latest]) : [];
}

/** What a test run with no match says. */
export function noSample(settings: Settings): { what: string; hint: string } {
	const chosen = [...settings.events].map((event) => EVENTS[event]).join(', ');
	return {
		what: 'Knowledge Hub page or source',
		hint: `None matches ${chosen} with the current Filters. Create or publish a matching page (or widen the Filters), then fetch a test event again.`,
	};
}
