/**
 * Zod schemas for every resource and envelope the service returns.
 *
 * This module is imported (types only) by the nodes, so it must stay free of side
 * effects and import nothing but zod. Field names follow the service spec; shapes the
 * spec leaves open follow the reference OpenAPI document. Nullable fields are nullable
 * where either document allows null, so clients are forced to handle it.
 */
import { z } from 'zod';

const dateTime = z.string().datetime({ offset: true });
const nullableDateTime = dateTime.nullable();

// ---------- shared pieces ----------

export const userRefSchema = z
	.object({
		id: z.string(),
		email: z.string().email(),
		first_name: z.string(),
		last_name: z.string(),
	})
	.strict();
export type UserRef = z.infer<typeof userRefSchema>;

export const rankSchema = z.enum(['gold', 'silver', 'bronze', 'unranked']);
export type Rank = z.infer<typeof rankSchema>;

export const paginationSchema = z
	.object({
		page: z.number().int().min(1),
		page_size: z.number().int().min(1).max(100),
		total_count: z.number().int().min(0),
		total_pages: z.number().int().min(0),
	})
	.strict();
export type Pagination = z.infer<typeof paginationSchema>;

/** Builds the `{data, pagination}` envelope schema for one row schema. */
export function listEnvelopeSchema<T extends z.ZodTypeAny>(row: T) {
	return z.object({ data: z.array(row), pagination: paginationSchema }).strict();
}
// The envelope's type is the nodes' contract; simulator/contract.ts holds these schemas to it.
export type { ListEnvelope } from '../nodes/shared/contract';

export const errorEnvelopeSchema = z
	.object({
		error: z
			.object({
				type: z.string(),
				code: z.string().optional(),
				message: z.string(),
				// Only on 429 answers: seconds until a retry can succeed.
				retry_after: z.number().int().min(0).optional(),
			})
			.strict(),
	})
	.strict();
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const deleteResultSchema = z.object({ id: z.string(), deleted: z.literal(true) }).strict();
export type DeleteResult = z.infer<typeof deleteResultSchema>;

// ---------- scenario studio ----------

export const jobStatusSchema = z.enum(['queued', 'processing', 'completed', 'failed', 'cancelled']);
export type JobStatus = z.infer<typeof jobStatusSchema>;

export const scenarioJobSchema = z
	.object({
		id: z.string(),
		status: jobStatusSchema,
		scenario: z
			.object({
				id: z.string(),
				name: z.string(),
				slug: z.string().optional(),
				url: z.string().url().optional(),
			})
			.strict()
			.nullable(),
		error: z.object({ code: z.string(), message: z.string() }).strict().nullable(),
		created_at: dateTime,
		started_at: nullableDateTime,
		completed_at: nullableDateTime,
		duration_seconds: z.number().nullable(),
		// Only on the create response.
		is_new: z.boolean().optional(),
	})
	.strict();
export type ScenarioJob = z.infer<typeof scenarioJobSchema>;

export const studioSessionSchema = z
	.object({ id: z.string(), url: z.string().url(), is_new: z.boolean() })
	.strict();
export type StudioSession = z.infer<typeof studioSessionSchema>;

// ---------- scenarios ----------

export const skillRefSchema = z
	.object({ id: z.string(), name: z.string(), slug: z.string() })
	.strict();
export type SkillRef = z.infer<typeof skillRefSchema>;

export const scenarioRefSchema = z
	.object({ id: z.string(), name: z.string(), slug: z.string() })
	.strict();
export type ScenarioRef = z.infer<typeof scenarioRefSchema>;

export const scenarioSchema = z
	.object({
		id: z.string(),
		name: z.string(),
		description: z.string().nullable(),
		slug: z.string(),
		url: z.string().url(),
		difficulty: z.enum(['easy', 'medium', 'hard', 'very_hard', 'custom']),
		context: z.string().nullable(),
		objective: z.string().nullable(),
		language: z.string(),
		visibility: z.enum(['private', 'workspace']),
		owner: userRefSchema.nullable(),
		created_at: dateTime,
		updated_at: dateTime,
		// Only with include=skills.
		skills: z.array(skillRefSchema).optional(),
	})
	.strict();
export type Scenario = z.infer<typeof scenarioSchema>;

export const permissionLevelSchema = z.enum(['view', 'share', 'monitor', 'edit']);
export type PermissionLevel = z.infer<typeof permissionLevelSchema>;

export const accessCheckSchema = z
	.object({
		user_email: z.string().email(),
		scenario_id: z.string(),
		permissions: z
			.object({
				can_view: z.boolean(),
				can_share: z.boolean(),
				can_monitor: z.boolean(),
				can_edit: z.boolean(),
			})
			.strict(),
	})
	.strict();
export type AccessCheck = z.infer<typeof accessCheckSchema>;

export const accessGrantSchema = z
	.object({
		user_email: z.string().email(),
		scenario_id: z.string(),
		permission_level: permissionLevelSchema,
		granted: z.boolean(),
	})
	.strict();
export type AccessGrant = z.infer<typeof accessGrantSchema>;

export const assignmentStatusSchema = z.enum([
	'not_started',
	'in_progress',
	'completed',
	'past_due',
	'did_not_pass',
]);
export type AssignmentStatus = z.infer<typeof assignmentStatusSchema>;

export const assignmentSchema = z
	.object({
		id: z.string(),
		user: userRefSchema,
		scenario: scenarioRefSchema,
		status: assignmentStatusSchema,
		due_date: nullableDateTime,
		best_score: z.number().nullable(),
		best_rank: rankSchema.nullable(),
		attempt_count: z.number().int().min(0),
		attempt_min: z.number().int().nullable(),
		attempt_max: z.number().int().nullable(),
		rank_min: rankSchema.nullable(),
		program: z.object({ id: z.string(), name: z.string() }).strict().nullable(),
		created_at: dateTime,
	})
	.strict();
export type Assignment = z.infer<typeof assignmentSchema>;

export const participantRowSchema = z
	.object({
		user: userRefSchema,
		session_count: z.number().int().min(0),
		first_score: z.number().nullable(),
		first_rank: rankSchema.nullable(),
		best_score: z.number().nullable(),
		best_rank: rankSchema.nullable(),
		lift_percentage: z.number().nullable(),
		total_duration_seconds: z.number(),
	})
	.strict();
export type ParticipantRow = z.infer<typeof participantRowSchema>;

export const analyticsSummarySchema = z
	.object({
		participant_count: z.number().int().min(0),
		total_sessions: z.number().int().min(0),
		average_best_score: z.number(),
		average_best_rank: rankSchema,
		average_lift_percentage: z.number(),
		total_practice_minutes: z.number().int().min(0),
		average_session_duration_seconds: z.number(),
		score_distribution: z.array(
			z
				.object({ rank: rankSchema, count: z.number().int().min(0), percentage: z.number() })
				.strict(),
		),
	})
	.strict();
export type AnalyticsSummary = z.infer<typeof analyticsSummarySchema>;

// ---------- sessions ----------

const sessionBase = {
	id: z.string(),
	user: userRefSchema,
	scenario: scenarioRefSchema,
	score: z.number().nullable(),
	rank: rankSchema.nullable(),
	duration_seconds: z.number().nullable(),
	is_valid_attempt: z.boolean(),
	created_at: dateTime,
};

export const sessionListItemSchema = z.object(sessionBase).strict();
export type SessionListItem = z.infer<typeof sessionListItemSchema>;

export const gradeSchema = z.enum(['good', 'mid', 'bad', 'not_relevant']);

export const transcriptLineSchema = z
	.object({
		speaker: z.string().nullable(),
		text: z.string(),
		seconds_from_start: z.number().nullable(),
	})
	.strict();

export const evaluationCriterionSchema = z
	.object({
		criterion_name: z.string(),
		items: z.array(
			z
				.object({
					name: z.string(),
					grade: gradeSchema.nullable(),
					feedback: z.string().nullable(),
					feedback_examples: z.array(
						z
							.object({
								quote: z.string(),
								feedback: z.string().nullable(),
								suggestion_quote: z.string().nullable(),
								grade: gradeSchema.nullable(),
								salience: z.enum(['high', 'mid', 'low']).nullable(),
							})
							.strict(),
					),
				})
				.strict(),
		),
	})
	.strict();

export const sessionDetailSchema = z
	.object({
		...sessionBase,
		outcome_feedback: z.string().nullable(),
		positive_feedback: z.string().nullable(),
		constructive_feedback: z.string().nullable(),
		// Only with include=transcript / include=evaluations.
		transcript: z.array(transcriptLineSchema).optional(),
		evaluations: z.array(evaluationCriterionSchema).optional(),
	})
	.strict();
export type SessionDetail = z.infer<typeof sessionDetailSchema>;

// ---------- skills ----------

export const proficiencySummarySchema = z
	.object({
		participant_count: z.number().int().min(0),
		scored_participant_count: z.number().int().min(0),
		pct_proficient_plus: z.number().int().min(0).max(100),
		avg_score: z.number().nullable(),
	})
	.strict();

export const skillSchema = z
	.object({
		id: z.string().uuid(),
		name: z.string(),
		slug: z.string(),
		description: z.string(),
		created_at: dateTime,
		// Only with include=proficiency.
		proficiency_summary: proficiencySummarySchema.optional(),
	})
	.strict();
export type Skill = z.infer<typeof skillSchema>;

export const proficiencyTierSchema = z.enum([
	'excellent',
	'proficient',
	'developing',
	'needs_work',
	'insufficient_data',
]);
export type ProficiencyTier = z.infer<typeof proficiencyTierSchema>;

export const proficiencyRowSchema = z
	.object({
		user: userRefSchema,
		score: z.number().nullable(),
		tier: proficiencyTierSchema,
		observation_count: z.number().int().min(1),
		last_practiced_at: dateTime,
	})
	.strict()
	.refine((row) => (row.score === null) === (row.tier === 'insufficient_data'), {
		message: 'score is null exactly when tier is insufficient_data',
	});
export type ProficiencyRow = z.infer<typeof proficiencyRowSchema>;

// ---------- workspace ----------

export const collectionSchema = z
	.object({
		id: z.string(),
		name: z.string(),
		slug: z.string(),
		description: z.string().nullable(),
		scenario_count: z.number().int().min(0),
		created_at: dateTime,
	})
	.strict();
export type Collection = z.infer<typeof collectionSchema>;

export const memberRoleSchema = z.enum(['admin', 'staff', 'member']);
export const memberSchema = z
	.object({ id: z.string(), user: userRefSchema, role: memberRoleSchema, created_at: dateTime })
	.strict();
export type Member = z.infer<typeof memberSchema>;

export const groupSchema = z
	.object({ id: z.string(), name: z.string(), created_at: dateTime })
	.strict();
export type Group = z.infer<typeof groupSchema>;

export const workspaceSchema = z
	.object({ id: z.string(), name: z.string(), url_slug: z.string(), created_at: dateTime })
	.strict();
export type Workspace = z.infer<typeof workspaceSchema>;

export const contextSchema = z
	.object({ id: z.string(), title: z.string(), created_at: dateTime })
	.strict();
export type Context = z.infer<typeof contextSchema>;

// ---------- knowledge hub ----------

export const kbVisibilitySchema = z.enum(['private', 'workspace', 'global']);

export const folderSchema = z
	.object({
		id: z.string().uuid(),
		name: z.string(),
		emoji: z.string().nullable(),
		parent: z.string().uuid().nullable(),
		visibility: kbVisibilitySchema,
		item_count: z.number().int().min(0),
		subfolder_count: z.number().int().min(0),
		created_at: dateTime,
		updated_at: dateTime,
	})
	.strict();
export type Folder = z.infer<typeof folderSchema>;

export const folderRefSchema = z
	.object({ id: z.string().uuid(), name: z.string(), emoji: z.string().nullable() })
	.strict();
export type FolderRef = z.infer<typeof folderRefSchema>;

export const sourceTypeSchema = z.enum([
	'upload',
	'url',
	'notion',
	'google_drive',
	'guru',
	'page',
	'integration',
]);
export type SourceType = z.infer<typeof sourceTypeSchema>;
export const sourceStatusSchema = z.enum(['pending', 'processing', 'ready', 'failed']);
export type SourceStatus = z.infer<typeof sourceStatusSchema>;

export const sourceSchema = z
	.object({
		id: z.string().uuid(),
		title: z.string(),
		source_type: sourceTypeSchema,
		status: sourceStatusSchema,
		content_format: z.enum(['markdown', 'plain_text', 'image', 'video']).nullable(),
		token_count: z.number().int().min(0).nullable(),
		has_images: z.boolean(),
		external_url: z.string().nullable(),
		summary: z.string().nullable(),
		cover: z.string(),
		folders: z.array(folderRefSchema),
		created_by: userRefSchema.nullable(),
		created_at: dateTime,
		updated_at: dateTime,
		processed_at: nullableDateTime,
		// Only on the detail endpoint with include=content.
		content: z.string().nullable().optional(),
	})
	.strict();
export type Source = z.infer<typeof sourceSchema>;

export const pageStatusSchema = z.enum(['draft', 'published', 'archived']);
export type PageStatus = z.infer<typeof pageStatusSchema>;

export const pageSkillRefSchema = z.object({ id: z.string().uuid(), name: z.string() }).strict();

const pageBase = {
	id: z.string().uuid(),
	title: z.string(),
	status: pageStatusSchema,
	visibility: kbVisibilitySchema,
	owner: userRefSchema.nullable(),
	folders: z.array(folderRefSchema),
	skills: z.array(pageSkillRefSchema),
	source_count: z.number().int().min(0),
	version: z.number().int().min(1).nullable(),
	cover: z.string(),
	published_at: nullableDateTime,
	created_at: dateTime,
	updated_at: dateTime,
};

/** List row: metadata only. */
export const pageSchema = z.object(pageBase).strict();
export type Page = z.infer<typeof pageSchema>;

export const pageDraftSchema = z
	.object({ title: z.string(), content: z.string().nullable() })
	.strict();
export type PageDraft = z.infer<typeof pageDraftSchema>;

/** Detail, create and update responses. */
export const pageDetailSchema = z
	.object({
		...pageBase,
		content: z.string().nullable(),
		sources: z.array(sourceSchema),
		// Only with include=draft on GET; always on create and update responses.
		draft: pageDraftSchema.nullable().optional(),
	})
	.strict();
export type PageDetail = z.infer<typeof pageDetailSchema>;

export const pageVersionSchema = z
	.object({
		version: z.number().int().min(1),
		title: z.string(),
		change_type: z.enum(['created', 'ai_generation', 'manual_edit', 'restore', 'clone']),
		created_by: userRefSchema.nullable(),
		created_at: dateTime,
		updated_at: dateTime,
	})
	.strict();
export type PageVersion = z.infer<typeof pageVersionSchema>;

// ---------- list envelopes, ready made ----------

export const scenarioListSchema = listEnvelopeSchema(scenarioSchema);
export const assignmentListSchema = listEnvelopeSchema(assignmentSchema);
export const participantListSchema = listEnvelopeSchema(participantRowSchema);
export const sessionListSchema = listEnvelopeSchema(sessionListItemSchema);
export const skillListSchema = listEnvelopeSchema(skillSchema);
export const proficiencyListSchema = listEnvelopeSchema(proficiencyRowSchema);
export const collectionListSchema = listEnvelopeSchema(collectionSchema);
export const memberListSchema = listEnvelopeSchema(memberSchema);
export const groupListSchema = listEnvelopeSchema(groupSchema);
export const contextListSchema = listEnvelopeSchema(contextSchema);
export const folderListSchema = listEnvelopeSchema(folderSchema);
export const sourceListSchema = listEnvelopeSchema(sourceSchema);
export const pageListSchema = listEnvelopeSchema(pageSchema);
export const pageVersionListSchema = listEnvelopeSchema(pageVersionSchema);
