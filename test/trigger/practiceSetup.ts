import type { INodeExecutionData } from 'n8n-workflow';

import type { PollHarness } from '../../n8n-harness/pollHarness';
import type { TriggerRig } from './setup';

export const PRACTICE_EVENTS = [
	'sessionScored',
	'assignmentCompleted',
	'assignmentDidNotPass',
	'assignmentPastDue',
] as const;

export interface PracticeEmitted {
	event: string;
	id: string;
	record: Record<string, unknown>;
}

/** The items of a practice poll as (event, id) pairs, in emitted order. */
export function practiceEventsOf(items: INodeExecutionData[]): PracticeEmitted[] {
	return items.map(({ json }) => {
		const record = (json.session ?? json.assignment) as Record<string, unknown>;
		return { event: String(json.event), id: String(record.id), record };
	});
}

/** A Practice Results trigger reading at every poll (assignments too), and its starting point taken. */
export async function practiceTrigger(
	rig: TriggerRig,
	events: readonly string[] = PRACTICE_EVENTS,
	filters: Record<string, unknown> = {},
	options: Record<string, unknown> = {},
	persistence: 'staged' | 'emit-only' = 'staged',
): Promise<PollHarness> {
	const trigger = rig.harness(
		{
			triggerOn: 'practice',
			practiceEvents: [...events],
			practiceFilters: filters,
			practiceOptions: { maxReadsPerDay: 0, openReadHours: 0, ...options },
		} as never,
		{ persistence },
	);
	const first = await trigger.poll();
	if (first.error) throw first.error;
	if (first.items.length) throw new Error('activation emitted');
	return trigger;
}

/** `count` scored sessions, one a second of service time, oldest first: their IDs. */
export function scoreSessions(rig: TriggerRig, count: number): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		rig.sim.control.advance(1000);
		ids.push(
			rig.sim.control.addSession({
				userEmail: 'dev@acme.com',
				scenario: 'procurement-discovery',
				score: 40 + (i % 50),
			}).id,
		);
	}
	return ids;
}
