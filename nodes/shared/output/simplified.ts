import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { quoted, validator } from '../validate';

/**
 * What Simplify keeps of each record with more than ten fields: the raw record with fewer keys, so an
 * expression works either way. docs/nodes.md has the same table (test/shared/simplified.test.ts).
 */
export const SIMPLIFIED_FIELDS = {
	/** Drops attempt_min, attempt_max, rank_min, program. */
	assignment: [
		'id',
		'user',
		'scenario',
		'status',
		'due_date',
		'best_score',
		'best_rank',
		'attempt_count',
		'created_at',
	],
	/** Drops first_rank. */
	participantAnalytics: [
		'user',
		'session_count',
		'first_score',
		'best_score',
		'best_rank',
		'lift_percentage',
		'total_duration_seconds',
	],
	/** Drops difficulty, language and the long Markdown context and objective. */
	scenario: [
		'id',
		'name',
		'slug',
		'url',
		'description',
		'visibility',
		'owner',
		'created_at',
		'updated_at',
		'skills',
	],
	/** Drops started_at, duration_seconds. */
	scenarioJob: [
		'id',
		'status',
		'scenario',
		'error',
		'created_at',
		'completed_at',
		'is_new',
		'notice',
	],
	/** Drops is_valid_attempt. */
	session: [
		'id',
		'user',
		'scenario',
		'score',
		'rank',
		'duration_seconds',
		'created_at',
		'outcome_feedback',
		'positive_feedback',
		'constructive_feedback',
		'transcript',
		'evaluations',
	],
	/** Drops cover and the attached sources (each a whole source record; source_count stays). */
	knowledgeHubPage: [
		'id',
		'title',
		'status',
		'visibility',
		'owner',
		'folders',
		'skills',
		'source_count',
		'version',
		'published_at',
		'created_at',
		'updated_at',
		'content',
		'draft',
	],
	/** Drops content_format, token_count, has_images, cover, created_by. */
	knowledgeHubSource: [
		'id',
		'title',
		'source_type',
		'status',
		'external_url',
		'summary',
		'folders',
		'created_at',
		'updated_at',
		'processed_at',
		'content',
		'is_new',
	],
	/** Drops the observation counts, last_practiced_at and the two dates (the same on every item). */
	tierChange: [
		'member',
		'skill',
		'tier_before',
		'tier_after',
		'score_before',
		'score_after',
		'direction',
		'summary',
	],
} as const satisfies Record<string, readonly string[]>;

export type SimplifiedKind = keyof typeof SIMPLIFIED_FIELDS;

export function simplifyRecord(kind: SimplifiedKind, record: IDataObject): IDataObject {
	const kept = SIMPLIFIED_FIELDS[kind].filter((key) => key in record);
	return Object.fromEntries(kept.map((key) => [key, record[key]]));
}

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/** The item's Simplify: a boolean or "true"/"false" (an expression); anything else is refused. */
export function isSimplifyOn(
	ctx: { getNode(): INode },
	itemIndex: number,
	value: unknown,
): boolean {
	if (value === true || value === 'true') return true;
	if (value === false || value === 'false') return false;
	return validator(ctx, itemIndex).fail('Simplify', `must be true or false, got ${quoted(value)}`);
}
