import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { apiListPage } from '../../shared/transport';
import { toItems } from '../family';
import type { Found } from './read';
import { ASSIGNMENTS_PATH, scoreMatches, SESSIONS_PATH, withFeedback } from './read';
import type { PracticeEvent, PracticeSettings } from './settings';
import { PRACTICE_EVENTS } from './settings';

/** A manual run shows the most recent match, so fields can be mapped; it reads nothing into the state. */
export async function manualSample(
	ctx: IPollFunctions,
	settings: PracticeSettings,
): Promise<INodeExecutionData[]> {
	if (settings.events.has('sessionScored')) {
		const { data } = await apiListPage<IDataObject>(
			ctx,
			SESSIONS_PATH,
			settings.scoredQuery,
			1,
			100,
		);
		const row = data.find((r) => scoreMatches(settings, r));
		if (row) {
			const found: Found[] = [{ event: 'sessionScored', kind: 'session', row }];
			return toItems(settings.includeFeedback ? await withFeedback(ctx, found) : found);
		}
	}
	const statuses: Array<[PracticeEvent, string]> = [
		['assignmentCompleted', 'completed'],
		['assignmentDidNotPass', 'did_not_pass'],
		['assignmentPastDue', 'past_due'],
	];
	for (const [event, status] of statuses) {
		if (!settings.events.has(event)) continue;
		const { data } = await apiListPage<IDataObject>(
			ctx,
			ASSIGNMENTS_PATH,
			{ ...settings.assignmentQuery, status },
			1,
			1,
		);
		if (data[0]) return toItems([{ event, kind: 'assignment', row: data[0] }]);
	}
	return [];
}

/** What a test run with no match says. */
export function noSample(settings: PracticeSettings): { what: string; hint: string } {
	const chosen = [...settings.events].map((event) => PRACTICE_EVENTS[event]).join(', ');
	return {
		what: 'practice result',
		hint: `None matches ${chosen} with the current Filters. Practice a matching scenario (or widen the Filters), then fetch a test event again.`,
	};
}
