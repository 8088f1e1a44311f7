/**
 * The Simplify table (nodes/shared/output/simplified.ts) against the records it cuts down (the
 * simulator's zod schemas, held to the spec), the form that offers it, the tool variant (its form and a
 * tool call through n8n-core), and the "Simplified output" table of docs/nodes.md (the user docs the
 * README links to).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties } from 'n8n-workflow';
import type { ZodRawShape } from 'zod';

import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { runToolCalls } from '../../n8n-harness/runTool';
import { toolVariant } from '../../n8n-harness/toolAgent';
import { resources } from '../../nodes/WorkspacePractice/actions/resources';
import type { SimplifiedKind } from '../../nodes/shared/output/simplified';
import {
	isSimplifyOn,
	SIMPLIFIED_FIELDS,
	simplifyRecord,
} from '../../nodes/shared/output/simplified';
import {
	assignmentSchema,
	pageDetailSchema,
	participantRowSchema,
	scenarioJobSchema,
	scenarioSchema,
	sessionDetailSchema,
	sourceSchema,
} from '../../simulator/schemas';
import { startSimulator } from '../../simulator';
import { TIER_CHANGE_FIELDS } from '../support/tierChangeFields';

/** Every field a record of each kind can carry: its schema's, plus is_new where the node adds it. */
const RECORD_FIELDS: Record<SimplifiedKind, string[]> = {
	assignment: keys(assignmentSchema.shape),
	participantAnalytics: keys(participantRowSchema.shape),
	scenario: keys(scenarioSchema.shape),
	// Create adds is_new, and a notice when the Callback URL is n8n's test path.
	scenarioJob: [...keys(scenarioJobSchema.shape), 'is_new', 'notice'],
	session: keys(sessionDetailSchema.shape),
	knowledgeHubPage: keys(pageDetailSchema.shape),
	// Create From URL adds is_new (201 or 200), as withIsNew does.
	knowledgeHubSource: [...keys(sourceSchema.shape), 'is_new'],
	// Skill → Get Tier Changes builds its records itself (test/actions/skillTierChanges.test.ts holds them to this list).
	tierChange: [...TIER_CHANGE_FIELDS],
};

function keys(shape: ZodRawShape): string[] {
	return Object.keys(shape);
}

const kinds = Object.keys(SIMPLIFIED_FIELDS) as SimplifiedKind[];

describe('the table', () => {
	test.each(kinds)(
		'%s: every kept field is one the record has, and something is left out',
		(kind) => {
			const kept: readonly string[] = SIMPLIFIED_FIELDS[kind];
			expect(kept.filter((field) => !RECORD_FIELDS[kind].includes(field))).toEqual([]);
			expect(RECORD_FIELDS[kind].filter((field) => !kept.includes(field)).length).toBeGreaterThan(
				0,
			);
			expect(new Set(kept).size).toBe(kept.length);
		},
	);

	test('records with more than ten fields, counting those of the user or scenario they embed', () => {
		// A user reference has 4 fields, a scenario reference at least 3.
		const nested: Record<string, number> = { user: 4, owner: 4, created_by: 4, scenario: 3 };
		for (const kind of kinds) {
			const count = RECORD_FIELDS[kind].reduce((sum, field) => sum + (nested[field] ?? 1), 0);
			expect([kind, count > 10]).toEqual([kind, true]);
		}
	});

	test('simplifyRecord keeps the listed fields it finds, in the table order, values untouched', () => {
		const user = { id: 'u1', email: 'a@b.co', first_name: 'A', last_name: 'B' };
		const row = { total_duration_seconds: 9, first_rank: 'gold', user, best_score: 90 };
		expect(simplifyRecord('participantAnalytics', row)).toEqual({
			user,
			best_score: 90,
			total_duration_seconds: 9,
		});
		expect(Object.keys(simplifyRecord('participantAnalytics', row))).toEqual([
			'user',
			'best_score',
			'total_duration_seconds',
		]);
		expect(simplifyRecord('participantAnalytics', row).user).toBe(user);
	});

	test('the Simplify value: booleans and their text, anything else refused naming the field', () => {
		const ctx = { getNode: () => ({ name: 'Workspace Practice' }) as never };
		expect(isSimplifyOn(ctx, 0, true)).toBe(true);
		expect(isSimplifyOn(ctx, 0, 'false')).toBe(false);
		expect(() => isSimplifyOn(ctx, 1, 1)).toThrow('Simplify: must be true or false, got 1');
		expect(() => isSimplifyOn(ctx, 1, undefined)).toThrow('Simplify: must be true or false');
	});
});

describe('the form', () => {
	const { description } = new WorkspacePractice();
	const shows = (property: INodeProperties, resource: string, operation: string) =>
		property.displayOptions?.show?.resource?.includes(resource) === true &&
		property.displayOptions?.show?.operation?.includes(operation) === true;
	const operations = Object.values(resources).flatMap((module) =>
		Object.entries(module.operations).map(([operation, op]) => ({
			resource: module.option.value,
			operation,
			simplifies: !!op.simplify,
		})),
	);

	test('sixteen operations offer Simplify: those returning the records of the table', () => {
		expect(
			operations
				.filter((op) => op.simplifies)
				.map((op) => `${op.resource}:${op.operation}`)
				.sort(),
		).toEqual([
			'assignment:getAll',
			'knowledgeHubPage:create',
			'knowledgeHubPage:get',
			'knowledgeHubPage:getAll',
			'knowledgeHubPage:update',
			'knowledgeHubSource:createFromUrl',
			'knowledgeHubSource:get',
			'knowledgeHubSource:getAll',
			'scenario:getAll',
			'scenario:getParticipantAnalytics',
			'scenarioJob:cancel',
			'scenarioJob:create',
			'scenarioJob:get',
			'session:get',
			'session:getAll',
			'skill:getTierChanges',
		]);
	});

	test.each(operations.map((op) => [`${op.resource}:${op.operation}`, op] as const))(
		'%s: Simplify last, on by default, or absent',
		(_, op) => {
			const fields = description.properties.filter((property) =>
				shows(property, op.resource, op.operation),
			);
			const simplify = fields.filter((property) => property.name === 'simplify');
			if (!op.simplifies) {
				expect(simplify).toEqual([]);
				return;
			}
			expect(simplify).toHaveLength(1);
			expect(fields[fields.length - 1]).toMatchObject({
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				description:
					'Whether to return a simplified version of the response instead of the raw data',
			});
		},
	);

	test('the tool variant n8n builds keeps Simplify on: a tool call that leaves it out gets the simplified records', async () => {
		// The variant as the server builds it (n8n-harness/toolVariant): usableAsTool's replacements can
		// only rename the node (INodeTypeBaseDescription), so the form's defaults are the tool's.
		const tool = toolVariant(new WorkspacePractice()).description;
		const toggles = tool.properties.filter((property) => property.name === 'simplify');
		expect(toggles).toHaveLength(operations.filter((op) => op.simplifies).length);
		expect(toggles.every((property) => property.default === true)).toBe(true);
		// And what a model gets: the call runs through n8n-core's tool machinery with Simplify unset.
		const sim = await startSimulator();
		try {
			const { answers } = await runToolCalls({
				parameters: { resource: 'scenario', operation: 'getAll', returnAll: false, limit: 3 },
				calls: [{}],
				credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			});
			const records = answers[0].answer as Array<Record<string, unknown>>;
			expect(records.length).toBeGreaterThan(0);
			const kept = SIMPLIFIED_FIELDS.scenario as readonly string[];
			for (const record of records)
				expect(Object.keys(record)).toEqual(kept.filter((field) => field in record));
			expect(Object.keys(records[0]).length).toBeLessThan(keys(scenarioSchema.shape).length);
		} finally {
			await sim.close();
		}
	});
});

test('docs/nodes.md: the "Simplified output" table lists what each kind keeps and leaves out', () => {
	const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'nodes.md'), 'utf8');
	const section = doc.split('\n## Simplified output\n')[1]?.split('\n#')[0] ?? '';
	const rows = section
		.split('\n')
		.filter(
			(line) => line.startsWith('| ') && !line.startsWith('| Record') && !/^\|\s*-/.test(line),
		);
	const names = (cell: string) => [...cell.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]);
	const table = rows.map((line) => line.split('|').map((cell) => cell.trim()));
	expect(table.map((cells) => names(cells[2]))).toEqual(
		kinds.map((kind) => [...SIMPLIFIED_FIELDS[kind]]),
	);
	expect(table.map((cells) => names(cells[3]))).toEqual(
		kinds.map((kind) =>
			RECORD_FIELDS[kind].filter(
				(field) => !(SIMPLIFIED_FIELDS[kind] as readonly string[]).includes(field),
			),
		),
	);
});
