import type { INodeParameters } from 'n8n-workflow';

import { PollHarness } from '../../n8n-harness/pollHarness';
import { ManualClock, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';

/**
 * Read Schedule: More Often in Working Hours, in the workflow's time zone, and shared reads between
 * two Practice Results triggers on one key, through n8n-core's PollContext against the simulator. The
 * simulator's clock and this process's Date.now move together, a minute per poll.
 */
const MINUTE = 60_000;
/** Wednesday 18 March 2026, 07:00 in New York (UTC-4). */
const START = Date.parse('2026-03-18T11:00:00.000Z');

let sim: RunningSimulator;
let clock: ManualClock;
const realNow = Date.now;
let host = START;
beforeEach(async () => {
	clock = new ManualClock(START);
	sim = await startSimulator({ clock });
	host = START;
	Date.now = () => host;
});
afterEach(async () => {
	Date.now = realNow;
	await sim.close();
});

function tick(): void {
	host += MINUTE;
	sim.control.advance(MINUTE);
}

const trigger = (name: string, parameters: INodeParameters, timezone = 'America/New_York') =>
	new PollHarness({
		parameters,
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		workflow: { id: name, name, timezone },
	});

const sessionReads = () =>
	sim.control.requests({ method: 'GET', path: '/sessions' }).map((r) => Date.parse(r.at));
const local = (ms: number) =>
	new Date(ms).toLocaleTimeString('en-GB', { timeZone: 'America/New_York', hour12: false });

test('More Often in Working Hours: every 11 minutes from 09:00 to 17:00 New York time, every 6 hours outside', async () => {
	const coach = trigger('coach', {
		triggerOn: 'practice',
		practiceEvents: ['sessionScored'],
		practiceOptions: { readSchedule: 'workingHours' },
	});
	// 07:00 to 23:59 local, a poll a minute as n8n does by default.
	for (let minute = 0; minute < 17 * 60; minute++) {
		const outcome = await coach.poll();
		if (outcome.error) throw outcome.error;
		tick();
	}
	const reads = sessionReads();
	// The first read takes two requests (the starting point), every later one a request.
	const times = [...new Set(reads.map(local))];
	const working = times.filter((t) => t >= '09:00' && t < '17:00');
	expect(times[0]).toBe('07:00:00');
	expect(working[0]).toBe('09:00:00');
	expect(working).toHaveLength(44);
	const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
	expect(working.slice(1).map((t, i) => minutes(t) - minutes(working[i]))).toEqual(
		Array(43).fill(11),
	);
	// After 16:53 the next read waits 6 hours: 22:53.
	expect(times.filter((t) => t >= '17:00')).toEqual(['22:53:00']);
	expect(times.filter((t) => t < '09:00')).toEqual(['07:00:00']);
});

test('the same schedule in Tokyo: 07:00 to 23:59 in New York is 20:00 to 12:59 the next day there', async () => {
	const coach = trigger(
		'coach-tokyo',
		{
			triggerOn: 'practice',
			practiceEvents: ['sessionScored'],
			practiceOptions: { readSchedule: 'workingHours' },
		},
		'Asia/Tokyo',
	);
	for (let minute = 0; minute < 17 * 60; minute++) {
		const outcome = await coach.poll();
		if (outcome.error) throw outcome.error;
		tick();
	}
	const tokyo = [
		...new Set(
			sessionReads().map((ms) =>
				new Date(ms).toLocaleTimeString('en-GB', { timeZone: 'Asia/Tokyo', hour12: false }),
			),
		),
	];
	// 20:00 (first), 02:00, 08:00 (6 hours apart), then from 09:00 (Thursday) every 11 minutes to 12:51.
	expect(tokyo.slice(0, 3)).toEqual(['20:00:00', '02:00:00', '08:00:00']);
	expect(tokyo.slice(3)).toHaveLength(22);
	expect(tokyo.at(-1)).toBe('12:51:00');
	expect(tokyo[3]).toBe('09:00:00');
});

test('Working Hours that do not read: a clear error naming the field, before any request', async () => {
	const coach = trigger('coach-bad', {
		triggerOn: 'practice',
		practiceEvents: ['sessionScored'],
		practiceOptions: { readSchedule: 'workingHours', workingHours: 'weekdays 9 to 5' },
	});
	const outcome = await coach.poll();
	expect(outcome.error?.message).toMatch(/^Options → Working Hours: must be days then hours/);
	expect(sim.control.requests({})).toHaveLength(0);
});

test('two Practice Results triggers on one key polled in the same minute: one sessions read, each gets its events once', async () => {
	const low = trigger('low', {
		triggerOn: 'practice',
		practiceEvents: ['sessionScored'],
		practiceFilters: { scoreBelow: 60 },
		practiceOptions: { maxReadsPerDay: 0 },
	});
	const high = trigger('high', {
		triggerOn: 'practice',
		practiceEvents: ['sessionScored'],
		practiceFilters: { scoreAtLeast: 60 },
		practiceOptions: { maxReadsPerDay: 0 },
	});
	for (const t of [low, high]) expect((await t.poll()).error).toBeUndefined();
	const email = sim.control.store.data.users.find((u) => u.member)!.email;
	const scenario = sim.control.store.data.scenarios[0].id;
	const scores = [40, 95, 59, 60, 12];
	const emitted = { low: [] as string[], high: [] as string[] };
	const before = sessionReads().length;
	let polls = 0;
	for (const score of scores) {
		tick();
		sim.control.addSession({ userEmail: email, scenario, score });
		for (const [name, t] of [
			['low', low],
			['high', high],
		] as const) {
			const outcome = await t.poll();
			if (outcome.error) throw outcome.error;
			emitted[name].push(
				...outcome.items.map((i) => String((i.json.session as { score: number }).score)),
			);
		}
		polls++;
	}
	expect(emitted.low).toEqual(['40', '59', '12']);
	expect(emitted.high).toEqual(['95', '60']);
	// One read a minute for both (each read is one page here).
	expect(sessionReads().length - before).toBe(polls);
});
