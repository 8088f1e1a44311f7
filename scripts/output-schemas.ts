/**
 * The output schemas n8n's editor shows before a node first runs ("schema preview"), built from the
 * definitions the rest of the repository already holds, never written by hand:
 * - each record's fields and types: the simulator's zod schemas (simulator/schemas.ts), the service's
 *   shapes that every simulator answer is checked against;
 * - what Simplify keeps: the node's own `simplify` of each operation (nodes/shared/output/simplified.ts),
 *   applied to a record holding every field;
 * - which record an operation answers with: the table below (the route it calls, as
 *   simulator/routes/response-schemas.ts maps routes to schemas), plus what the node adds (is_new,
 *   sync_result) and, for the triggers, the event name and the record's key.
 *
 * n8n asks for `/schemas/<node type>/<x.y.z>/<resource>/<operation>.json` and serves
 * `<node folder>/__schema__/v<x.y.z>/<resource>/<operation>.json`; a node without resource and
 * operation (the triggers) is asked for `/schemas/<node type>/<x.y.z>.json`, served from
 * `__schema__/v<x.y.z>.json`. The files are committed under nodes/ (n8n-node's build layout) and copied
 * to dist/ by the build; `npm run schemas` rewrites them and test/schemas/outputSchemas.test.ts fails
 * when they are stale or when a node's real output does not match.
 *
 * Usage: npx tsx scripts/output-schemas.ts [--check]
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';

import { resources } from '../nodes/WorkspacePractice/actions/resources';
import { EVENTS } from '../nodes/WorkspacePracticeTrigger/knowledgeHub/events';
import { PRACTICE_EVENTS } from '../nodes/WorkspacePracticeTrigger/practice/settings';
import { SKILL_TIER_EVENTS } from '../nodes/WorkspacePracticeTrigger/skillTiers/settings';
import * as s from '../simulator/schemas';

/** A JSON Schema object as written (draft-07, no $ref: the editor reads it as is). */
export interface JsonSchema {
	type?: string | string[];
	properties?: Record<string, JsonSchema>;
	required?: string[];
	additionalProperties?: boolean;
	description?: string;
	enum?: unknown[];
	[key: string]: unknown;
}

const ROOT = path.join(__dirname, '..');

/** What one output item's JSON is: a record of the service, with what the node adds. */
interface Output {
	record: z.ZodTypeAny;
	/** Fields the node adds to the record. */
	adds?: Record<string, z.ZodTypeAny>;
}

const isNew = { is_new: z.boolean() };

/**
 * A tier change: two of the simulator's proficiency rows compared (nodes/shared/skills/tierChange.ts),
 * the item of Skill → Get Tier Changes and of the Skill Tiers trigger.
 */
const tierChangeSchema = z
	.object({
		member: s.userRefSchema,
		skill: z.object({ id: z.string(), name: z.string() }).strict(),
		tier_before: s.proficiencyTierSchema,
		tier_after: s.proficiencyTierSchema,
		score_before: z.number().nullable(),
		score_after: z.number().nullable(),
		direction: z.enum(['up', 'down', 'new']),
		new: z.boolean(),
		observation_count_before: z.number().int(),
		observation_count_after: z.number().int().nullable(),
		last_practiced_at: z.string().nullable(),
		from: z.string(),
		to: z.string(),
		summary: z.string(),
	})
	.strict();

/**
 * Which record each operation of the action node outputs (one item per list row for Get Many and
 * the other lists). A missing or extra operation fails the generation, so this stays complete.
 */
const ACTION_OUTPUTS: Record<string, Record<string, Output>> = {
	assignment: { getAll: { record: s.assignmentSchema } },
	collection: { getAll: { record: s.collectionSchema } },
	context: { getAll: { record: s.contextSchema } },
	group: { getAll: { record: s.groupSchema } },
	knowledgeHubFolder: {
		get: { record: s.folderSchema },
		getAll: { record: s.folderSchema },
	},
	knowledgeHubPage: {
		archive: { record: s.deleteResultSchema },
		create: { record: s.pageDetailSchema },
		createOrUpdate: {
			record: s.pageDetailSchema,
			adds: { sync_result: z.enum(['created', 'updated', 'unchanged']) },
		},
		get: { record: s.pageDetailSchema },
		getAll: { record: s.pageSchema },
		getVersions: { record: s.pageVersionSchema },
		update: { record: s.pageDetailSchema },
	},
	knowledgeHubSource: {
		archive: { record: s.deleteResultSchema },
		createFromUrl: { record: s.sourceSchema, adds: isNew },
		get: { record: s.sourceSchema },
		getAll: { record: s.sourceSchema },
	},
	member: { getAll: { record: s.memberSchema } },
	scenario: {
		assign: { record: s.assignmentSchema },
		checkAccess: { record: s.accessCheckSchema },
		getAnalyticsSummary: { record: s.analyticsSummarySchema },
		getAll: { record: s.scenarioSchema },
		getParticipantAnalytics: { record: s.participantRowSchema },
		grantAccess: { record: s.accessGrantSchema },
	},
	scenarioJob: {
		cancel: { record: s.scenarioJobSchema },
		create: { record: s.scenarioJobSchema, adds: isNew },
		get: { record: s.scenarioJobSchema },
	},
	session: {
		get: { record: s.sessionDetailSchema },
		getAll: { record: s.sessionListItemSchema },
	},
	skill: {
		getAll: { record: s.skillSchema },
		getProficiency: { record: s.proficiencyRowSchema },
		getTierChanges: { record: tierChangeSchema },
	},
	studioSession: { create: { record: s.studioSessionSchema } },
	workspace: { get: { record: s.workspaceSchema } },
};

function toJsonSchema(schema: z.ZodTypeAny): JsonSchema {
	// Typed loosely: TypeScript gives up expanding zod's types through the library's generics (TS2589).
	const convert = zodToJsonSchema as (schema: unknown, options: object) => unknown;
	const json = convert(schema, { $refStrategy: 'none', target: 'jsonSchema7' }) as JsonSchema;
	delete json.$schema;
	return json;
}

/** The fields of an object schema (a refined one included). */
function shapeOf(schema: z.ZodTypeAny): Record<string, z.ZodTypeAny> {
	const inner = schema instanceof z.ZodEffects ? schema.innerType() : schema;
	if (!(inner instanceof z.ZodObject)) throw new Error('an output record must be a zod object');
	return inner.shape as Record<string, z.ZodTypeAny>;
}

/** One object whose properties are those of every variant and whose required ones are in all. */
function anyOfObjects(variants: JsonSchema[]): JsonSchema {
	const properties: Record<string, JsonSchema> = {};
	for (const variant of variants) Object.assign(properties, variant.properties);
	const required = Object.keys(properties).filter((key) =>
		variants.every((variant) => variant.required?.includes(key)),
	);
	return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * The output of one operation: the record's fields, with what the node adds. With Simplify (on by
 * default), only the fields it keeps are always there; the others are marked as Simplify-off only.
 */
function actionSchema(
	output: Output,
	simplify: ((record: IDataObject) => IDataObject) | undefined,
): JsonSchema {
	const record = z.object({ ...shapeOf(output.record), ...(output.adds ?? {}) }).strict();
	const json = toJsonSchema(record);
	if (!simplify) return json;
	const every = Object.fromEntries(Object.keys(json.properties ?? {}).map((key) => [key, 1]));
	const kept = new Set(Object.keys(simplify(every)));
	for (const [key, property] of Object.entries(json.properties ?? {})) {
		if (!kept.has(key)) property.description = 'Only with Simplify off';
	}
	json.required = (json.required ?? []).filter((key) => kept.has(key));
	return json;
}

/**
 * The Workspace Practice Trigger's item: `{ event, <kind>: record }` (nodes/WorkspacePracticeTrigger
 * poll.ts and practice/poll.ts). Knowledge Hub Changes gives a page (the list row, or the full page
 * with Fetch Full Record) or a source; Practice Results a session (the list row, or its detail with
 * Include Session Feedback) or an assignment. One schema serves both modes: n8n asks per node.
 */
function triggerSchema(): JsonSchema {
	const event = z.enum([
		...(Object.keys(EVENTS) as [string]),
		...(Object.keys(PRACTICE_EVENTS) as [string]),
		...(Object.keys(SKILL_TIER_EVENTS) as [string]),
	]);
	// Skill Tiers gives the tier change's fields beside `event` (skillTiers/poll.ts).
	const tierChange = toJsonSchema(tierChangeSchema);
	const record = (...variants: z.ZodTypeAny[]) => anyOfObjects(variants.map(toJsonSchema));
	return {
		type: 'object',
		properties: {
			event: { ...toJsonSchema(event), description: 'Which event this item is' },
			page: record(s.pageSchema, s.pageDetailSchema),
			source: toJsonSchema(s.sourceSchema),
			session: record(s.sessionListItemSchema, s.sessionDetailSchema),
			assignment: toJsonSchema(s.assignmentSchema),
			...tierChange.properties,
		},
		required: ['event'],
		additionalProperties: false,
	};
}

/** The Job Trigger's item: the job as the API gives it (Confirm With API, the default). */
function jobTriggerSchema(): JsonSchema {
	return toJsonSchema(s.scenarioJobSchema);
}

/** Every schema file, by its path under the repository root. */
export function outputSchemas(): Map<string, JsonSchema> {
	const files = new Map<string, JsonSchema>();
	const actionDir = 'nodes/WorkspacePractice/__schema__/v1.0.0';
	const offered = Object.entries(resources).flatMap(([resource, module]) =>
		Object.keys(module.operations).map((operation) => `${resource}/${operation}`),
	);
	const tabled = Object.entries(ACTION_OUTPUTS).flatMap(([resource, operations]) =>
		Object.keys(operations).map((operation) => `${resource}/${operation}`),
	);
	const missing = offered.filter((key) => !tabled.includes(key));
	const extra = tabled.filter((key) => !offered.includes(key));
	if (missing.length || extra.length)
		throw new Error(
			`output table out of step: missing ${missing.join(', ')}; extra ${extra.join(', ')}`,
		);
	for (const [resource, module] of Object.entries(resources)) {
		for (const [operation, op] of Object.entries(module.operations)) {
			files.set(
				`${actionDir}/${resource}/${operation}.json`,
				actionSchema(ACTION_OUTPUTS[resource][operation], op.simplify),
			);
		}
	}
	files.set('nodes/WorkspacePracticeTrigger/__schema__/v1.0.0.json', triggerSchema());
	files.set('nodes/WorkspacePracticeJobTrigger/__schema__/v2.0.0.json', jobTriggerSchema());
	return files;
}

/** The file's text as written: two-space JSON, one trailing newline (Prettier leaves it as is). */
export const fileText = (schema: JsonSchema): string => `${JSON.stringify(schema, null, 2)}\n`;

/** The committed files that differ from what the definitions give (missing ones included). */
export function staleFiles(): string[] {
	return [...outputSchemas()]
		.filter(([file, schema]) => {
			const full = path.join(ROOT, file);
			return !existsSync(full) || readFileSync(full, 'utf8') !== fileText(schema);
		})
		.map(([file]) => file);
}

function main(): void {
	if (process.argv.includes('--check')) {
		const stale = staleFiles();
		if (stale.length) {
			console.error(`stale output schemas (run npm run schemas):\n${stale.join('\n')}`);
			process.exit(1);
		}
		return;
	}
	for (const dir of [
		'WorkspacePractice',
		'WorkspacePracticeTrigger',
		'WorkspacePracticeJobTrigger',
	])
		rmSync(path.join(ROOT, 'nodes', dir, '__schema__'), { recursive: true, force: true });
	const files = outputSchemas();
	for (const [file, schema] of files) {
		const full = path.join(ROOT, file);
		mkdirSync(path.dirname(full), { recursive: true });
		writeFileSync(full, fileText(schema));
	}
	console.log(`${files.size} output schemas written`);
}

if (require.main === module) main();
