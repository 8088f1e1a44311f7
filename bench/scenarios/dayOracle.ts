/**
 * The scale day's oracle (issue 48): every family judged per ID against what the simulator logged or
 * holds, written from the spec and docs/triggers.md, docs/practice-events.md and docs/trigger-changes.md
 * alone (not from the trigger's code). For each family: the events due (what changed, when), matched
 * by ID with the items the workflows emitted (with the virtual clock's time of emission): missed,
 * duplicates, unexpected, and the delay from the change to the item (median, p90, max, minutes).
 *
 * "Due" needs the trigger's reads: a change is due from the first read at or after it (a poll of that
 * workflow that sent a request), and one the service's lists can no longer show at that read (a page
 * changed again, a tier that moved back) is not due, as the docs say. Reads are taken from the requests
 * each workflow sent, never from its state.
 */
import type { IDataObject } from 'n8n-workflow';

import { proficiency } from '../../simulator/state/analytics';
import { SYSTEM_EMAIL_DOMAIN } from '../../simulator/state/seed';
import type { Store } from '../../simulator/state/store';
import type { AssignmentChange, ObservationRec } from '../../simulator/state/types';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export interface FamilyFigures {
	/** Events due in the judged window (for Tier Changed, those the docs leave to a later sweep and sent are counted too). */
	expected: number;
	/** Due events sent (once or more). */
	delivered: number;
	/** Due events not sent, or sent after the docs' bound (`late`, counted here too). */
	missed: number;
	/** Of `missed`: sent, but after the docs' bound for the family (issue 55). */
	late?: number;
	/** When each missed (or late) event's change happened: the week's count by day (not kept in the results). */
	missedAt?: number[];
	/** Emissions of an event already sent. */
	duplicates: number;
	/** Emissions the log does not explain (no change, or a change that was not to be sent). */
	unexpected: number;
	medianDelayMinutes: number | null;
	p90DelayMinutes: number | null;
	worstDelayMinutes: number | null;
	/** Tier Changed found by the sweep: changes it has not reached yet (due within Sweep Every (Days)). */
	notYetDue?: number;
	/** Which events were missed, sent twice or unexpected (IDs and times), the first 20. */
	findings?: string[];
}

/** An item a workflow emitted: its key (family-specific: an ID and what identifies the change) and when. */
export interface Sent {
	key: string;
	at: number;
}

/** A change the log says is due: its key, when it happened, and whether the docs allow it later. */
interface Due {
	key: string;
	at: number;
	/** Tier Changed from calls alone: sent at this read or at a later sweep, either is right. */
	optional?: boolean;
	/** The docs' bound: sent after this instant is late (counted as missed). */
	by?: number;
}

const round = (n: number) => Math.round(n * 10) / 10;
const iso = (t: number) => `${new Date(t).toISOString().slice(0, 19)}Z`;

function delays(
	sorted: number[],
): Pick<FamilyFigures, 'medianDelayMinutes' | 'p90DelayMinutes' | 'worstDelayMinutes'> {
	const n = sorted.length;
	return {
		medianDelayMinutes: n ? round(sorted[Math.floor((n - 1) / 2)]) : null,
		p90DelayMinutes: n ? round(sorted[Math.ceil(0.9 * n) - 1]) : null,
		worstDelayMinutes: n ? round(sorted[n - 1]) : null,
	};
}

/** Matches the items sent with the changes due, by key. */
export function judge(due: Due[], sent: Sent[], extraFindings: string[] = []): FamilyFigures {
	const byKey = new Map<string, number[]>();
	for (const s of sent) byKey.set(s.key, [...(byKey.get(s.key) ?? []), s.at]);
	// One event per key: a key logged twice (changed, changed back, changed again) is judged once.
	const firsts = new Map<string, Due>();
	for (const d of due) if (!firsts.has(d.key)) firsts.set(d.key, d);
	const dueKeys = new Set(firsts.keys());
	const findings = [...extraFindings];
	const lags: number[] = [];
	let expected = 0;
	let delivered = 0;
	let missed = 0;
	let late = 0;
	let duplicates = 0;
	const missedAt: number[] = [];
	for (const d of firsts.values()) {
		const times = byKey.get(d.key) ?? [];
		if (d.optional && !times.length) continue;
		expected++;
		if (!times.length) {
			missed++;
			missedAt.push(d.at);
			findings.push(`missed ${d.key} (changed ${iso(d.at)})`);
			continue;
		}
		delivered++;
		const first = Math.min(...times);
		lags.push((first - d.at) / MINUTE);
		if (d.by !== undefined && first > d.by) {
			late++;
			missed++;
			missedAt.push(d.at);
			findings.push(
				`late ${d.key} (changed ${iso(d.at)}, due by ${iso(d.by)}, sent ${iso(first)})`,
			);
		}
		if (times.length > 1) {
			duplicates += times.length - 1;
			findings.push(`duplicate ${d.key} sent at ${times.map(iso).join(', ')}`);
		}
	}
	let unexpected = 0;
	for (const [key, times] of byKey) {
		if (dueKeys.has(key)) continue;
		unexpected += times.length;
		findings.push(`unexpected ${key} sent at ${times.map(iso).join(', ')}`);
	}
	return {
		expected,
		delivered,
		missed,
		late,
		duplicates,
		unexpected,
		...delays(lags.sort((a, b) => a - b)),
		...(missedAt.length ? { missedAt } : {}),
		...(findings.length ? { findings: findings.slice(0, 20) } : {}),
	};
}

/** The first read at or after `t`. */
const nextRead = (reads: number[], t: number) => reads.find((r) => r >= t);

/**
 * "Within one read interval" (docs/practice-events.md): sent by the read after the first read at or
 * after the change (that read may have started before the change showed); no bound after the last read.
 */
export function withinOneRead(reads: number[], t: number): number | undefined {
	const first = reads.findIndex((r) => r >= t);
	return first < 0 ? undefined : reads[first + 1];
}

/** Skill Tiers (docs/triggers.md): a night's read, continued or not, ends within the hour it began. */
export const TIER_READ_BOUND_MINUTES = 60;

/**
 * Session Scored with Score Below `below` (docs/practice-events.md): every session graded in the window
 * with a score under it, due from the coach's next read, once per session ID (a re-score is no event).
 */
export function judgeSessionScored(
	store: Store,
	window: { from: number; to: number },
	reads: number[],
	below: number,
	sent: Sent[],
): FamilyFigures {
	const due: Due[] = [];
	const seen = new Set<string>();
	for (const s of store.scoreLog) {
		if (seen.has(s.id)) continue;
		seen.add(s.id);
		if (s.at < window.from || s.at > window.to || s.score >= below) continue;
		if (nextRead(reads, s.at) === undefined) continue;
		due.push({ key: s.id, at: s.at, by: withinOneRead(reads, s.at) });
	}
	return judge(due, sent);
}

/** The key of a Knowledge Hub item: event, ID and what identifies the change (docs/trigger-changes.md). */
export function knowledgeHubKey(json: IDataObject): string {
	const event = String(json.event);
	const page = json.page as IDataObject | undefined;
	const source = json.source as IDataObject | undefined;
	const sec = (v: unknown) => Math.floor(Date.parse(String(v)) / 1000);
	if (source) return `${event}:${String(source.id)}:${sec(source.processed_at)}`;
	if (!page) return `${event}:?`;
	if (event === 'pageUpdated') return `${event}:${String(page.id)}:${sec(page.updated_at)}`;
	if (event === 'pagePublished') return `${event}:${String(page.id)}:v${String(page.version)}`;
	return `${event}:${String(page.id)}`;
}

/**
 * The Knowledge Hub watcher, every event, no filters (docs/triggers.md): Page Created per page created
 * in the window; Page Updated per new `updated_at` (a publication is one too), Page Published per
 * version published, each as the list shows it at the next read (a change overwritten before that read,
 * or a page archived by then, shows nothing); Source Ready per source that finished extraction.
 */
export function judgeKnowledgeHub(
	store: Store,
	window: { from: number; to: number },
	reads: number[],
	sent: Sent[],
): FamilyFigures {
	const sec = (t: number) => Math.floor(t / 1000);
	const due: Due[] = [];
	const log = store.pageLog;
	log.forEach((c, i) => {
		if (c.at < window.from || c.at > window.to) return;
		const read = nextRead(reads, c.at);
		if (read === undefined) return;
		const later = log.filter((o, j) => j > i && o.id === c.id && o.at <= read);
		if (later.some((o) => o.change === 'archived')) return;
		const page = store.page(c.id);
		if (c.change === 'created') due.push({ key: `pageCreated:${c.id}`, at: c.at });
		if (c.change !== 'created' && c.change !== 'archived' && !later.length)
			if (!page || sec(c.at) !== sec(page.createdAt))
				due.push({ key: `pageUpdated:${c.id}:${sec(store.stamp(c.at))}`, at: c.at });
		const publishedAfter = later.some((o) => o.version !== c.version);
		if (
			c.version !== null &&
			!publishedAfter &&
			(c.change === 'published' || c.change === 'created')
		)
			if (c.change === 'published' || c.version === 1)
				due.push({ key: `pagePublished:${c.id}:v${c.version}`, at: c.at });
	});
	for (const s of store.data.sources) {
		if (s.archived || s.status !== 'ready' || s.processedAt === null) continue;
		if (s.processedAt < window.from || s.processedAt > window.to) continue;
		if (nextRead(reads, s.processedAt) === undefined) continue;
		due.push({
			key: `sourceReady:${s.id}:${sec(store.stamp(s.processedAt))}`,
			at: s.processedAt,
		});
	}
	return judge(due, sent);
}

/**
 * Scenario jobs: through the Job Trigger, every job created with a callback URL that ended in a status
 * the service calls back for (the spec: completed), once per job ID; By Polling, every other job of the
 * window, once, when it ended. Delay from `completed_at`.
 */
export function judgeJobs(
	store: Store,
	window: { from: number; to: number },
	callbacks: Sent[],
	byPolling: Sent[],
): { jobTrigger: FamilyFigures; jobByPolling: FamilyFigures } {
	const withCallback: Due[] = [];
	const polled: Due[] = [];
	for (const job of store.jobs.values()) {
		if (job.createdAt < window.from || job.createdAt > window.to) continue;
		if (job.callbackUrl !== null) {
			if (job.completedAt !== null && store.callbackStatuses.includes(job.status as 'completed'))
				withCallback.push({ key: job.id, at: job.completedAt });
		} else polled.push({ key: job.id, at: job.completedAt ?? window.to });
	}
	return { jobTrigger: judge(withCallback, callbacks), jobByPolling: judge(polled, byPolling) };
}

/** One poll of the Skill Tiers trigger: when it started, the observations the service held then, its items. */
export interface TierPoll {
	at: number;
	observations: number;
	items: IDataObject[];
	/** When its items were emitted (the poll's end). */
	emittedAt: number;
}

type Tier = string;

const tierKey = (member: string, skill: string) => `${member}|${skill}`;

/** The member ID of a Tier Changed item (a user reference, or an object holding one). */
function memberId(json: IDataObject): string {
	const m = json.member as IDataObject | string | undefined;
	if (typeof m === 'string') return m;
	if (!m) return '?';
	if (m.id !== undefined) return String(m.id);
	const user = m.user as IDataObject | undefined;
	return String(user?.id ?? '?');
}

/**
 * Tier Changed (docs/triggers.md, Skill Tiers): the polls in order, the first the activation (its
 * instant the baseline of every member and skill in scope). At each later read, a member and skill in
 * scope whose tier (spec 4.3, the simulator's proficiency as of the read's instant, whole seconds; the
 * baseline's with the observations logged by the next read, dated up to the activation's instant)
 * differs from the tier last reported (or the baseline) is a change: due at that read when the member
 * practised the skill since the last read (a scored session created since, on a scenario evaluating it);
 * otherwise (calls, a session's skills no longer its scenario's) found by the sweep: sent now or at a
 * later read, and missed only when not sent within Sweep Every (Days) days of the read that first saw
 * it (a read carried on over several polls counts once). No tier is "insufficient
 * data" before a member's first observation (a first tier is `new`). Scope: the skills given, the
 * workspace's members less system users. Judges the polls from `judgeFrom` on: `practised` the changes
 * due at their read (delay from the newest score), `bySweep` the others (delay from the newest
 * observation, often days: the sweep comes round every Sweep Every (Days)).
 */
export function judgeTierChanges(
	store: Store,
	polls: TierPoll[],
	skills: string[],
	sweepDays: number,
	judgeFrom: number,
): { practised: FamilyFigures; bySweep: FamilyFigures } {
	if (polls.length < 2) return { practised: judge([], []), bySweep: judge([], []) };
	const inSkills = new Set(skills);
	const members = new Set(
		store.data.users
			.filter((u) => u.member && !u.email.toLowerCase().endsWith(SYSTEM_EMAIL_DOMAIN))
			.map((u) => u.id),
	);
	const bySkill = new Map<string, Array<{ o: ObservationRec; n: number }>>();
	store.data.observations.forEach((o, n) => {
		if (!inSkills.has(o.skillId) || !members.has(o.userId)) return;
		const list = bySkill.get(o.skillId) ?? [];
		list.push({ o, n });
		bySkill.set(o.skillId, list);
	});
	const sec = (t: number) => Math.floor(t / 1000) * 1000;
	/** Every pair's tier (and newest observation) as the service would answer at a poll's instant. */
	const tiersAt = (poll: TierPoll) => {
		const out = new Map<string, { tier: Tier; last: number }>();
		const asOf = sec(poll.at);
		for (const [skill, list] of bySkill) {
			const held = list.filter((x) => x.n < poll.observations).map((x) => x.o);
			for (const p of proficiency(held, asOf))
				out.set(tierKey(p.userId, skill), { tier: p.tier, last: p.lastAt });
		}
		return out;
	};
	const scoredBy = new Map(store.scoreLog.map((s) => [s.id, s.at]));
	const last = new Map<string, Tier>();
	/** The key of the change last reported per pair: the same change sent again is a duplicate. */
	const reported = new Map<string, string>();
	// The baseline is each pair's reading as of the activation's instant, asked when the member is first
	// read (docs/triggers.md), so an observation dated at or before that instant but logged after it (a
	// session started at the activation's second and scored minutes later) counts in it: the
	// observations the next read can see, as of the activation's instant (issue 55).
	for (const [key, { tier }] of tiersAt({ ...polls[0], observations: polls[1].observations }))
		last.set(key, tier);
	/** Changes the sweep may still send: pair → the instant of the read it was first seen at. */
	const deferred = new Map<string, number>();
	// Sweep Every (Days) is days, not polls: a read carried on over several polls of a night is one
	// read. A sweep may come 5% of its period early, at most 72 minutes (ARCHITECTURE.md, quota.ts).
	const period = sweepDays * DAY;
	const sweepBound = period - Math.min(0.05 * period, 72 * MINUTE);
	const due: Due[] = [];
	const sent: Sent[] = [];
	const sweepKeys = new Set<string>();
	const findings: string[] = [];
	let wrong = 0;
	for (let k = 1; k < polls.length; k++) {
		const poll = polls[k];
		const judged = k >= judgeFrom;
		const now = tiersAt(poll);
		const from = sec(polls[k - 1].at);
		const to = sec(poll.at);
		/** Pairs practised since the last read → when the newest of those sessions was scored. */
		const practised = new Map<string, number>();
		for (const s of store.data.sessions) {
			if (s.createdAt <= from || s.createdAt > to || s.score === null) continue;
			const scored = scoredBy.get(s.id) ?? s.createdAt;
			if (!members.has(s.userId) || scored > to) continue;
			for (const skill of store.scenarioById(s.scenarioId)?.skillIds ?? []) {
				const pair = tierKey(s.userId, skill);
				if (inSkills.has(skill)) practised.set(pair, Math.max(scored, practised.get(pair) ?? 0));
			}
		}
		const items = new Map<string, IDataObject[]>();
		for (const json of poll.items) {
			const key = tierKey(memberId(json), String((json.skill as IDataObject)?.id));
			items.set(key, [...(items.get(key) ?? []), json]);
		}
		const pairs = new Set([...now.keys(), ...items.keys()]);
		for (const pair of pairs) {
			const tier = now.get(pair)?.tier ?? 'insufficient_data';
			const before = last.get(pair) ?? 'insufficient_data';
			const emitted = items.get(pair) ?? [];
			const key = `${pair}@${iso(poll.at)}`;
			if (tier === before) {
				deferred.delete(pair);
				if (judged)
					for (const json of emitted) {
						const again = String(json.tier_after) === tier && reported.get(pair);
						sent.push({ key: again || key, at: poll.emittedAt });
						findings.push(
							`${again ? 'again' : 'no change'} ${pair}: sent ${String(json.tier_before)} → ${String(json.tier_after)} (from ${String(json.from)} to ${String(json.to)}), the service's ${tier} at ${iso(poll.at)}${again ? `, reported at ${again.split('@')[1]}` : ''}`,
						);
					}
				continue;
			}
			const required = practised.has(pair);
			const since = deferred.get(pair) ?? poll.at;
			const overdue = !required && poll.at - since >= sweepBound;
			if (judged) {
				due.push({
					key,
					at: practised.get(pair) ?? now.get(pair)?.last ?? poll.at,
					optional: !required && !overdue,
					// Practised: sent that night, by the end of the hour the read began.
					...(required ? { by: poll.at + TIER_READ_BOUND_MINUTES * MINUTE } : {}),
				});
				if (!required) sweepKeys.add(key);
				for (const json of emitted) {
					sent.push({ key, at: poll.emittedAt });
					if (String(json.tier_after) !== tier || String(json.tier_before) !== before) {
						wrong++;
						findings.push(
							`wrong ${key}: sent ${String(json.tier_before)} → ${String(json.tier_after)}, the service's ${before} → ${tier}`,
						);
					}
				}
			}
			if (emitted.length || required || overdue) {
				last.set(pair, tier);
				reported.set(pair, key);
				deferred.delete(pair);
			} else deferred.set(pair, since);
		}
	}
	const bySweep = (key: string) => sweepKeys.has(key);
	const practised = judge(
		due.filter((d) => !bySweep(d.key)),
		sent.filter((x) => !bySweep(x.key)),
		findings,
	);
	return {
		practised: wrong ? { ...practised, unexpected: practised.unexpected + wrong } : practised,
		bySweep: {
			...judge(
				due.filter((d) => bySweep(d.key)),
				sent.filter((x) => bySweep(x.key)),
			),
			notYetDue: deferred.size,
		},
	};
}

/**
 * The outcomes oracle, per assignment ID from the simulator's log alone: every change to completed or
 * did_not_pass logged in the window is sent once as its event (minutes from the change to the poll that
 * sent it). With the workflow's `reads`, an outcome a scored session shows (`bySession`: every change
 * the bench makes) is due within one read of the read that lists the session (issue 54, the docs'
 * table); others within 24 hours and one read.
 */
export function judgeOutcomes(
	log: AssignmentChange[],
	sent: Map<string, number[]>,
	reads?: number[],
	bySession: (c: AssignmentChange) => boolean = () => true,
): FamilyFigures {
	const EVENT: Record<string, string> = {
		completed: 'assignmentCompleted',
		did_not_pass: 'assignmentDidNotPass',
	};
	const due: Due[] = [];
	const bound = (c: AssignmentChange) =>
		!reads
			? undefined
			: bySession(c)
				? withinOneRead(reads, c.at)
				: withinOneRead(reads, c.at + 24 * 60 * MINUTE);
	for (const c of log)
		if (c.to in EVENT) due.push({ key: `${c.id}|${EVENT[c.to]}`, at: c.at, by: bound(c) });
	return judge(
		due,
		[...sent].flatMap(([key, times]) => times.map((at) => ({ key, at }))),
	);
}
