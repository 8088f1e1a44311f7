/**
 * The demo's output in the editor's words (issue 41, point 9): events by the names the trigger's
 * Events list shows, scenario names cut at a word with "…", a page's state and a session's rank said in
 * words. Pure functions, tested in test/demo/demoWords.test.ts.
 */
import { EVENTS } from '../nodes/WorkspacePracticeTrigger/knowledgeHub/events';
import { PRACTICE_EVENTS } from '../nodes/WorkspacePracticeTrigger/practice/settings';
import { SKILL_TIER_EVENTS } from '../nodes/WorkspacePracticeTrigger/skillTiers/settings';

const EVENT_NAMES: Record<string, string> = { ...EVENTS, ...PRACTICE_EVENTS, ...SKILL_TIER_EVENTS };

/** "sessionScored" → "Session Scored", as the trigger's Events list names it. */
export function eventLabel(event: unknown): string {
	return EVENT_NAMES[String(event)] ?? String(event);
}

/**
 * A scenario's name as the service made it: the service names a scenario after the first words of its
 * prompt, so a name that is the start of a longer prompt it came from is shown with "…".
 */
export function scenarioLabel(name: unknown, prompts: readonly unknown[]): string {
	const text = String(name ?? '');
	const words = (value: string) => value.trim().toLowerCase().split(/\s+/).filter(Boolean);
	const own = words(text);
	const cut = prompts.some((prompt) => {
		const all = words(String(prompt ?? ''));
		return all.length > own.length && own.every((word, i) => all[i] === word);
	});
	return cut ? `${text}…` : text;
}

/** A Knowledge Hub page's state: "draft, not published yet" or "published, version 3". */
export function pageStateLabel(status: unknown, version: unknown): string {
	const hasVersion = version !== undefined && version !== null && version !== '';
	if (status === 'draft' && !hasVersion) return 'draft, not published yet';
	return hasVersion ? `${String(status)}, version ${String(version)}` : String(status);
}

/** A session's rank in words: "unranked" is below the lowest rank (bronze). */
export function rankLabel(rank: unknown): string {
	return rank === 'unranked' ? 'below every rank ("unranked")' : `rank ${String(rank)}`;
}
