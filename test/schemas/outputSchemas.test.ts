/**
 * The output schemas n8n's editor shows before a first run (nodes/<Node>/__schema__, written by
 * scripts/output-schemas.ts from the simulator's zod schemas and the nodes' Simplify): committed files
 * are current, and every operation's and trigger's real output, through n8n-core's engine against the
 * simulator, matches its schema (no field missing from it, none of the wrong type, none it says is
 * always there missing). Each action case is the real-n8n suite's case for that operation
 * (e2e/cases.ts), run with Simplify on and off where the operation has it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CASES } from '../../e2e/cases';
import { runNode } from '../../n8n-harness/runNode';
import { TriggerEndpoint } from '../../n8n-harness/webhookTrigger';
import { WebhookServer } from '../../n8n-harness/webhookServer';
import { resources } from '../../nodes/WorkspacePractice/actions/resources';
import { outputSchemas, staleFiles } from '../../scripts/output-schemas';
import { INSTANT_JOB_TIMINGS, startSimulator, type RunningSimulator } from '../../simulator';
import { bootJobSim, createParams, runJobNode } from '../jobs/jobTestKit';
import { practiceTrigger } from '../trigger/practiceSetup';
import { startRig, type TriggerRig } from '../trigger/setup';

const ROOT = path.join(__dirname, '..', '..');
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

const validators = new Map<string, ValidateFunction>();
/** The committed schema file, compiled (read from disk: what the build ships). */
function validatorFor(file: string): ValidateFunction {
	let validate = validators.get(file);
	if (!validate) {
		validate = ajv.compile(JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as object);
		validators.set(file, validate);
	}
	return validate;
}

/** Problems of each item against the schema, as readable lines (empty when all match). */
function mismatches(file: string, items: INodeExecutionData[]): string[] {
	const validate = validatorFor(file);
	return items.flatMap((item, n) =>
		validate(item.json)
			? []
			: (validate.errors ?? []).map(
					(e) =>
						`${file} item ${n}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
				),
	);
}

const actionFile = (resource: string, operation: string) =>
	`nodes/WorkspacePractice/__schema__/v1.0.0/${resource}/${operation}.json`;

describe('the committed schema files', () => {
	it('are what the definitions give (npm run schemas rewrites them)', () => {
		expect(staleFiles()).toEqual([]);
	});

	it('cover every operation of the action node, both triggers and both Job Trigger versions', () => {
		const files = [...outputSchemas().keys()];
		for (const [resource, module] of Object.entries(resources))
			for (const operation of Object.keys(module.operations))
				expect(files).toContain(actionFile(resource, operation));
		expect(files).toContain('nodes/WorkspacePracticeTrigger/__schema__/v1.0.0.json');
		expect(files).toContain('nodes/WorkspacePracticeJobTrigger/__schema__/v2.0.0.json');
	});

	it('are what the editor accepts: an object with properties, each one typed', () => {
		for (const [file, schema] of outputSchemas()) {
			expect([file, schema.type]).toEqual([file, 'object']);
			expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(0);
		}
	});

	it('can fail: a field the schema does not name, or a wrong type, is refused', () => {
		const file = actionFile('workspace', 'get');
		const good = { id: 'w1', name: 'Acme', url_slug: 'acme', created_at: '2026-01-01T00:00:00Z' };
		expect(mismatches(file, [{ json: good }])).toEqual([]);
		expect(mismatches(file, [{ json: { ...good, extra: 1 } }])).not.toEqual([]);
		expect(mismatches(file, [{ json: { ...good, name: 3 } }])).not.toEqual([]);
		expect(mismatches(file, [{ json: { id: 'w1' } }])).not.toEqual([]);
	});
});

describe('every operation of the action node matches its schema', () => {
	let sim: RunningSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ jobTimings: INSTANT_JOB_TIMINGS });
	});
	afterAll(async () => await sim.close());

	const cases = Object.entries(CASES).map(([key, c]) => [key, c] as const);
	test.each(cases)('%s', async (key, c) => {
		const [resource, operation] = key.split(':');
		const withSimplify = resources[resource as keyof typeof resources].operations[
			operation as never
		] as { simplify?: unknown };
		const variants = withSimplify.simplify ? [{}, { simplify: false }] : [{}];
		for (const extra of variants) {
			// Fresh each time: a case may make what it works on (a job to cancel).
			const params = await c.params({ fx: sim.control.fixtures(), sim });
			const { items, error } = await runNode({
				// Pacing off: the cases share one key, and this checks shapes, not the service's minute.
				parameters: {
					...params,
					...extra,
					batching: { requestsPerMinute: 0, creationsPerMinute: 0 },
				},
				credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			});
			expect(error).toBeUndefined();
			expect(items.length).toBeGreaterThan(0);
			expect(mismatches(actionFile(resource, operation), items)).toEqual([]);
		}
	});
});

describe('the triggers match their schemas', () => {
	const TRIGGER = 'nodes/WorkspacePracticeTrigger/__schema__/v1.0.0.json';
	let rig: TriggerRig;
	beforeAll(async () => {
		rig = await startRig();
	});
	afterAll(async () => await rig.close());
	beforeEach(() => rig.reset());
	const control = () => rig.sim.control;

	test.each([false, true])(
		'Knowledge Hub Changes: every event (Fetch Full Record %s)',
		async (fetchFull) => {
			const trigger = rig.harness({
				events: ['pageCreated', 'pageUpdated', 'pagePublished', 'sourceReady'],
				options: { fetchFull },
			} as never);
			expect((await trigger.poll()).error).toBeUndefined();
			control().advance(1000);
			const page = control().createPage({ title: 'Schema check', status: 'published' });
			const source = control().createSource({ url: 'https://example.com/s', title: 'Doc' });
			control().advance(1000);
			control().updatePage(page.id, { content: 'New text' });
			control().setSourceStatus(source.id, 'ready');
			const { items, error } = await trigger.poll();
			expect(error).toBeUndefined();
			expect(new Set(items.map((i) => i.json.event))).toEqual(
				new Set(['pageCreated', 'pagePublished', 'pageUpdated', 'sourceReady']),
			);
			expect(mismatches(TRIGGER, items)).toEqual([]);
		},
	);

	test.each([false, true])(
		'Practice Results: every event (Include Session Feedback %s)',
		async (includeFeedback) => {
			const fx = control().fixtures();
			const trigger = await practiceTrigger(rig, undefined, {}, { includeFeedback });
			control().addSession({
				userEmail: 'bob@acme.com',
				scenario: fx.scenarios.discoveryCall.id,
				score: 95,
			});
			const first = await trigger.poll();
			expect(first.error).toBeUndefined();
			control().store.data.assignments.push({
				...control().store.data.assignments[4],
				id: 'asg-due-soon',
				userId: control().store.userByEmail('dev@acme.com')!.id,
				dueDate: control().store.stamp(Date.parse(control().now()) + 3_600_000),
				createdAt: Date.parse(control().now()),
			});
			expect((await trigger.poll()).error).toBeUndefined();
			control().advance(2 * 3_600_000);
			const due = await trigger.poll();
			const items = [...first.items, ...due.items];
			expect(new Set(items.map((i) => i.json.event))).toEqual(
				new Set(['sessionScored', 'assignmentCompleted', 'assignmentPastDue']),
			);
			expect(mismatches(TRIGGER, items)).toEqual([]);
		},
	);

	test.each([2])('Job Trigger version %i: the confirmed job', async (typeVersion) => {
		const { sim } = await bootJobSim();
		const server = new WebhookServer();
		await server.start();
		try {
			const trigger = new TriggerEndpoint(server, {
				nodeType: 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger',
				typeVersion,
				parameters: { authentication: 'none', confirmWithApi: true },
				credentials: { workspacePracticeApi: { baseUrl: sim.baseUrl, apiKey: sim.apiKey } },
			});
			const created = await runJobNode(sim, {
				parameters: createParams(sim, {
					waitForCompletion: 'off',
					additionalFields: { callbackUrl: trigger.url },
				}),
			});
			expect(created.error).toBeUndefined();
			sim.control.advance(5_000);
			await sim.control.waitForCallbacks();
			const items = trigger.outputs().flat();
			expect(items).toHaveLength(1);
			expect((items[0].json as IDataObject).status).toBe('completed');
			expect(
				mismatches(`nodes/WorkspacePracticeJobTrigger/__schema__/v${typeVersion}.0.0.json`, items),
			).toEqual([]);
		} finally {
			await server.close();
			await sim.close();
		}
	});
});
