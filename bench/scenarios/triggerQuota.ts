/**
 * Requests a Knowledge Hub trigger spends in a day at its default settings, every event chosen, on a
 * workspace with 1,000 ready sources and 1,000 pages: idle, and with 100 page changes an hour.
 *
 * A day of n8n's default schedule (a poll every minute) is played on the simulator's movable clock and
 * a host clock moved by the same minute (the trigger paces its reads on the host clock). Request counts
 * do not depend on the machine, so one run is the figure.
 */
import { ManualClock, SEED_NOW, startSimulator } from '../../simulator';
import { PollHarness } from '../../n8n-harness/pollHarness';
import { SEEN_MAX_BYTES } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/changes';
import { DEFAULT_MAX_READS } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/settings';

export interface TriggerQuotaFigures {
	pages: number;
	readySources: number;
	pollsPerDay: number;
	idleRequestsPerDay: number;
	busyRequestsPerDay: number;
	busyEvents: number;
	goalIdle: number;
	/** JSON size of the stored state after N page creations in one second (keys: N), and its bound. */
	burstStateBytes?: Record<string, number>;
	stateBoundBytes?: number;
}

const ALL_EVENTS = ['pageCreated', 'pageUpdated', 'pagePublished', 'sourceReady'];
const MINUTE = 60_000;

async function day(changesPerHour: number): Promise<{ requests: number; events: number }> {
	const clock = new ManualClock(SEED_NOW);
	const sim = await startSimulator({
		clock,
		dataSize: { pages: 1000, sources: 1000 },
		sourceTimings: { pendingMs: 0, processingMs: 0 },
	});
	const realNow = Date.now;
	let host = realNow.call(Date);
	Date.now = () => host;
	try {
		const control = sim.control;
		for (const source of control.store.data.sources)
			if (source.status !== 'ready' && !source.archived)
				control.setSourceStatus(source.id, 'ready');
		const ready = control.store.data.sources.filter(
			(s) => s.status === 'ready' && !s.archived,
		).length;
		if (ready < 1000)
			throw new Error(`bench workspace has ${ready} ready sources, expected at least 1,000`);
		// Defaults as a user gets them: the option is set explicitly only because the test harness
		// would otherwise turn pacing off.
		const trigger = new PollHarness({
			parameters: { events: ALL_EVENTS, options: { maxReadsPerDay: DEFAULT_MAX_READS } },
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});
		const activation = await trigger.poll();
		if (activation.error) throw activation.error;
		control.clearRequests();
		let events = 0;
		let changes = 0;
		const live = () => control.store.data.pages.filter((p) => p.status !== 'archived');
		for (let minute = 1; minute <= 24 * 60; minute++) {
			host += MINUTE;
			const due = Math.floor((minute * changesPerHour) / 60);
			while (changes < due) {
				changes++;
				if (changes % 2 === 0) control.createPage({ title: `Busy ${changes}` });
				else control.updatePage(live()[changes % live().length].id, { title: `Edited ${changes}` });
			}
			clock.advance(MINUTE);
			const outcome = await trigger.poll();
			if (outcome.error) throw outcome.error;
			events += outcome.items.length;
		}
		return { requests: control.requests({}).length, events };
	} finally {
		Date.now = realNow;
		await sim.close();
	}
}

/**
 * The stored state after `count` page creations inside one second (second precision, every event):
 * two polls, as the second may still be running at the first. Bytes of the whole static data as JSON.
 */
async function burstStateBytes(count: number): Promise<number> {
	const clock = new ManualClock(SEED_NOW);
	const sim = await startSimulator({ clock });
	try {
		const control = sim.control;
		control.setTimestampPrecision('second');
		const trigger = new PollHarness({
			parameters: { events: ALL_EVENTS },
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});
		await trigger.poll();
		clock.advance(1000);
		for (let i = 0; i < count; i++) control.createPage({ title: `Burst ${i}` });
		let events = 0;
		for (let poll = 0; poll < 2; poll++) {
			const outcome = await trigger.poll();
			if (outcome.error) throw outcome.error;
			events += outcome.items.length;
		}
		if (events !== count) throw new Error(`burst of ${count}: ${events} events`);
		return JSON.stringify(trigger.stored).length;
	} finally {
		await sim.close();
	}
}

export async function benchTriggerQuota(): Promise<TriggerQuotaFigures> {
	const burst: Record<string, number> = {};
	for (const count of [600, 2000]) burst[count] = await burstStateBytes(count);
	const idle = await day(0);
	const busy = await day(100);
	return {
		pages: 1000,
		readySources: 1000,
		pollsPerDay: 24 * 60,
		idleRequestsPerDay: idle.requests,
		busyRequestsPerDay: busy.requests,
		busyEvents: busy.events,
		goalIdle: 100,
		burstStateBytes: burst,
		stateBoundBytes: SEEN_MAX_BYTES,
	};
}
