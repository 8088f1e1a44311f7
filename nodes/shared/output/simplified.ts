import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { quoted, validator } from '../validate';

/** What Simplify keeps of each record: docs/nodes.md has the table and what each leaves out. */
export const SIMPLIFIED_FIELDS = {
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
	participantAnalytics: [
		'user',
		'session_count',
		'first_score',
		'best_score',
		'best_rank',
		'lift_percentage',
		'total_duration_seconds',
	],
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
