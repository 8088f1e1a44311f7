import type { IPollFunctions } from 'n8n-workflow';

import type { Practised } from '../../shared/skills/readTiers';
import { practisedBySkill, readScenarioSkills, readSessions } from '../../shared/skills/readTiers';
import type { SkillTiersSettings } from './settings';
import type { TiersMemory } from './state';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Sessions are read from an hour before the last read: a session listed a little after its
 * created_at (the service writing it late) is still found.
 */
export const SESSION_OVERLAP_MS = HOUR;

/**
 * A session listed without a score is graded later (spec: sessions list); its member is read again at
 * every read for a day after it was created, so the grade's effect on the tiers is seen. Later grades
 * are found by the sweep.
 */
export const UNSCORED_WATCH_MS = DAY;
const MAX_UNSCORED = 500;

/** The scenarios' skills are kept in the state when this small (characters of JSON), a day at most. */
const MAX_KEPT_SCENARIOS_CHARS = 20_000;
const SCENARIOS_KEPT_MS = DAY;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Who practised which skill since the last read: the sessions created from the last read (less the
 * overlap) to `to`, newest first (one request per 100), mapped to skills by their scenarios (read when
 * any session is new, or kept when the map is small and less than a day old). Members with a session
 * listed unscored in the last day are counted too. Updates the memory's unscored sessions and map.
 */
export async function readPractised(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
	memory: TiersMemory,
	to: number,
): Promise<Practised> {
	const from = (memory.asOf ?? to) - SESSION_OVERLAP_MS;
	const sessions = await readSessions(ctx, settings.query, iso(from), iso(to));
	const watched = (memory.unscored ?? []).filter(([, , at]) => at * 1000 > to - UNSCORED_WATCH_MS);
	const scenarioIds = new Set([
		...sessions.map((s) => String(s.scenario?.id ?? '')),
		...watched.map(([, scenarioId]) => scenarioId),
	]);
	scenarioIds.delete('');
	let map: Record<string, string[]> = {};
	if (scenarioIds.size > 0) {
		const kept = memory.scenarioSkills;
		const fresh =
			kept !== undefined &&
			to - kept.at < SCENARIOS_KEPT_MS &&
			[...scenarioIds].every((id) => id in kept.map);
		if (fresh) map = kept.map;
		else {
			map = await readScenarioSkills(ctx);
			memory.scenarioSkills =
				JSON.stringify(map).length <= MAX_KEPT_SCENARIOS_CHARS ? { at: to, map } : undefined;
		}
	}
	const practised = practisedBySkill(sessions, (id) => map[id] ?? []);
	// Sessions still unscored: their members are read again until a day has passed.
	const unscored = new Map(watched.map((entry) => [`${entry[0]}|${entry[1]}|${entry[2]}`, entry]));
	for (const session of sessions) {
		if (session.score !== null && session.score !== undefined) continue;
		const at = Math.floor(Date.parse(String(session.created_at)) / 1000);
		const entry: [string, string, number] = [
			String(session.user?.id ?? ''),
			String(session.scenario?.id ?? ''),
			at,
		];
		if (entry[0] && entry[1] && !Number.isNaN(at)) unscored.set(entry.join('|'), entry);
	}
	memory.unscored = [...unscored.values()].slice(-MAX_UNSCORED);
	for (const [userId, scenarioId] of watched)
		for (const skillId of map[scenarioId] ?? []) {
			const members = practised.bySkill.get(skillId) ?? new Set<string>();
			members.add(userId);
			practised.bySkill.set(skillId, members);
		}
	return practised;
}
