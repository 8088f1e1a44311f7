/**
 * Forms and output in a real n8n (issue 14): Simplify on (the default) and off for a get, a list and
 * Scenario Job → Create By Polling; the tool variant keeping Simplify on; the Sort collection ordering
 * rows (with the parameter names each list takes); an End Date given as n8n's date picker gives a day.
 * Each check is a workflow Webhook → Workspace Practice, run by n8n; the base form values come from
 * e2e/cases.ts, so the operations' own cases and these stay in step.
 */
import { CASES, type CaseContext, type Item } from '../cases';
import { requireCredential, uniquePath, type SuiteContext } from '../context';
import { CheckError, expect, expectEqual } from '../harness';
import {
	ACTION_TYPE,
	JOB_TRIGGER_TYPE,
	operationWorkflow,
	type Params,
	POLL_TRIGGER_TYPE,
	TOOL_TYPE,
} from '../../scripts/n8n/workflows';
import { resources } from '../../nodes/WorkspacePractice/actions/resources';

/** Runs one action node with these parameters in n8n; returns its items and the requests it sent. */
async function runAction(ctx: SuiteContext, label: string, params: Params) {
	const { api, sim } = ctx;
	const path = uniquePath(`forms-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`);
	const workflow = await api.createWorkflow(
		operationWorkflow(`e2e forms: ${label}`, path, params, requireCredential(ctx)),
	);
	try {
		await api.activate(workflow.id);
		sim.control.clearRequests();
		const res = await api.callWebhook(path);
		if (res.status !== 200) {
			const [execution] = await api.executions(workflow.id).catch(() => []);
			throw new CheckError(
				`${label}: n8n answered ${res.status}; execution error: ${JSON.stringify(execution?.data?.resultData.error ?? 'none')}`,
			);
		}
		const items = res.body as Item[];
		expect(
			Array.isArray(items),
			`${label}: n8n answered ${JSON.stringify(res.body).slice(0, 200)}`,
		);
		return { items, requests: sim.control.requests() };
	} finally {
		await api.deactivate(workflow.id).catch(() => undefined);
		await api.deleteWorkflow(workflow.id).catch(() => undefined);
	}
}

async function caseParams(ctx: SuiteContext, key: string, extra: Params): Promise<Params> {
	const caseCtx: CaseContext = { fx: ctx.fx, sim: ctx.sim };
	return { ...(await CASES[key].params(caseCtx)), ...extra };
}

const keys = (item: Item): string[] => Object.keys(item);

interface ServedProperty {
	displayName: string;
	name: string;
	type?: string;
	options?: ServedProperty[];
	values?: ServedProperty[];
}

/** Collections and fixed collections (nested too) whose options n8n serves out of alphabetical order. */
function unsortedCollections(properties: ServedProperty[], path = ''): string[] {
	const found: string[] = [];
	for (const property of properties) {
		if (property.type !== 'collection' && property.type !== 'fixedCollection') continue;
		const where = `${path}${property.name}`;
		const names = (property.options ?? []).map((option) => option.displayName);
		const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
		if (names.join('|') !== sorted.join('|')) found.push(`${where}: ${names.join(' | ')}`);
		for (const option of property.options ?? [])
			found.push(...unsortedCollections(option.values ?? [option], `${where} → `));
	}
	return found;
}

function ascending(values: number[], what: string): void {
	expect(values.length > 1, `${what}: too few rows to see an order`);
	expect(new Set(values).size > 1, `${what}: every row has the same value`);
	expectEqual(
		values,
		[...values].sort((a, b) => a - b),
		`${what} in ascending order`,
	);
}

export async function formSteps(ctx: SuiteContext): Promise<void> {
	const { report, sim, api } = ctx;

	await report.step('forms: Simplify on by default and off, Session → Get', async () => {
		const simple = await runAction(
			ctx,
			'session get simplified',
			await caseParams(ctx, 'session:get', {}),
		);
		const raw = await runAction(
			ctx,
			'session get raw',
			await caseParams(ctx, 'session:get', { simplify: false }),
		);
		expectEqual(simple.items.length, 1, 'items');
		expect('is_valid_attempt' in raw.items[0], 'the raw session has is_valid_attempt');
		expect(
			!('is_valid_attempt' in simple.items[0]),
			`the simplified session has only its subset: ${keys(simple.items[0]).join(', ')}`,
		);
		expectEqual(simple.items[0].id, raw.items[0].id, 'the same session');
		return `${keys(simple.items[0]).length} fields simplified, ${keys(raw.items[0]).length} raw`;
	});

	await report.step(
		'forms: Simplify on and off, Assignment → Get Many (one item per row either way)',
		async () => {
			// Every assignment (the case filters to one status), so several rows show one item each.
			const simple = await runAction(
				ctx,
				'assignments simplified',
				await caseParams(ctx, 'assignment:getAll', { filters: {} }),
			);
			const raw = await runAction(
				ctx,
				'assignments raw',
				await caseParams(ctx, 'assignment:getAll', { filters: {}, simplify: false }),
			);
			expect(simple.items.length > 1, `several assignments, got ${simple.items.length}`);
			expectEqual(
				simple.items.map((a) => a.id),
				raw.items.map((a) => a.id),
				'the same rows, one item each',
			);
			expect(
				raw.items.every((a) => 'program' in a && 'rank_min' in a),
				'raw rows are whole',
			);
			const expected = [
				'id',
				'user',
				'scenario',
				'status',
				'due_date',
				'best_score',
				'best_rank',
				'attempt_count',
				'created_at',
			];
			for (const row of simple.items)
				expectEqual(keys(row), expected, 'simplified assignment fields');
			return `${simple.items.length} rows`;
		},
	);

	await report.step('forms: Simplify on and off, Scenario Job → Create By Polling', async () => {
		const params = (extra: Params) =>
			caseParams(ctx, 'scenarioJob:create', { waitForCompletion: 'poll', ...extra });
		const simple = await runAction(ctx, 'create simplified', await params({}));
		const raw = await runAction(ctx, 'create raw', await params({ simplify: false }));
		for (const { items } of [simple, raw])
			expectEqual(items[0]?.status, 'completed', 'the job waited for');
		expect(
			typeof raw.items[0].duration_seconds === 'number' && 'started_at' in raw.items[0],
			'raw job has started_at and duration_seconds',
		);
		expectEqual(
			keys(simple.items[0]),
			['id', 'status', 'scenario', 'error', 'created_at', 'completed_at', 'is_new'],
			'simplified job fields',
		);
		return `job ${String(simple.items[0].id)} simplified, ${String(raw.items[0].id)} raw`;
	});

	await report.step('forms: the tool variant n8n lists keeps Simplify on by default', async () => {
		const res = await api.raw('/types/nodes.json', { method: 'GET' });
		const types = res.body as Array<{
			name: string;
			properties?: Array<{ name: string; default?: unknown }>;
		}>;
		const tool = Array.isArray(types) ? types.find((t) => t.name === TOOL_TYPE) : undefined;
		expect(tool?.properties, `${TOOL_TYPE} with its properties is not in /types/nodes.json`);
		const toggles = tool.properties.filter((p) => p.name === 'simplify');
		// Every operation whose module offers Simplify (actions/resources.ts), as the node declares it.
		const offered = Object.values(resources).flatMap((resource) =>
			Object.values(resource.operations as Record<string, { simplify?: unknown }>).filter(
				(operation) => operation.simplify !== undefined,
			),
		).length;
		expectEqual(toggles.length, offered, 'operations with Simplify in the tool variant');
		expect(
			toggles.every((p) => p.default === true),
			'a Simplify of the tool variant is off by default',
		);
		return `${toggles.length} Simplify toggles, all on`;
	});

	await report.step(
		'forms: every collection n8n serves lists its options in alphabetical order',
		async () => {
			const res = await api.raw('/types/nodes.json', { method: 'GET' });
			const types = (Array.isArray(res.body) ? res.body : []) as Array<{
				name: string;
				properties?: ServedProperty[];
			}>;
			const ours = [ACTION_TYPE, POLL_TRIGGER_TYPE, JOB_TRIGGER_TYPE].map((name) => {
				const type = types.find((t) => t.name === name);
				expect(type?.properties, `${name} with its properties is not in /types/nodes.json`);
				return type;
			});
			const found = ours.flatMap((type) =>
				unsortedCollections(type.properties ?? []).map((line) => `${type.name}: ${line}`),
			);
			expectEqual(found, [], 'collections out of alphabetical order');
			return `${ours.length} node types, every collection sorted`;
		},
	);

	await report.step(
		'forms: Sort collection orders participant analytics, sent as sort and sorting',
		async () => {
			const { items, requests } = await runAction(
				ctx,
				'participants by session count',
				await caseParams(ctx, 'scenario:getParticipantAnalytics', {
					sort: { field: 'session_count', direction: 'ascending' },
				}),
			);
			const sent = requests.find((r) => r.path.endsWith('/analytics/participants'));
			expectEqual(
				[sent?.query.sort, sent?.query.sorting],
				['session_count', 'session_count'],
				'sort and sorting',
			);
			ascending(
				items.map((row) => Number(row.session_count)),
				'session_count',
			);
			return `${items.length} rows`;
		},
	);

	await report.step(
		'forms: Sort collection orders sessions (sorting) and pages (sort, title A to Z)',
		async () => {
			const sessions = await runAction(ctx, 'sessions by score', {
				resource: 'session',
				operation: 'getAll',
				returnAll: true,
				sort: { field: 'score', direction: 'ascending' },
			});
			const sentSessions = sessions.requests.find((r) => r.path === '/sessions');
			expectEqual(
				[sentSessions?.query.sorting, sentSessions?.query.sort],
				['score', undefined],
				'sessions: sorting only',
			);
			ascending(
				sessions.items.filter((s) => s.score !== null).map((s) => Number(s.score)),
				'session score',
			);
			const pages = await runAction(ctx, 'pages by title', {
				resource: 'knowledgeHubPage',
				operation: 'getAll',
				returnAll: true,
				sort: { field: 'title' },
			});
			// The simulator is shared with steps running alongside (the trigger lists pages by updated_at),
			// so look for this workflow's requests rather than the first pages request of any.
			const pageSorts = pages.requests
				.filter((r) => r.path === '/knowledge-hub/pages')
				.map((r) => r.query.sort);
			expect(
				pageSorts.includes('title'),
				`pages: sort: no request sent "title" (${pageSorts.join(', ')})`,
			);
			const titles = pages.items.map((p) => String(p.title));
			expect(titles.length > 1, 'too few pages');
			expectEqual(
				titles,
				[...titles].sort((a, b) => a.localeCompare(b)),
				'page titles A to Z',
			);
			return `${sessions.items.length} sessions, ${pages.items.length} pages`;
		},
	);

	await report.step(
		'forms: End Date as the date picker gives a day includes a session at 15:00 that day',
		async () => {
			const { fx } = ctx;
			const sessions = sim.control.store.data.sessions;
			const added = {
				id: `e2e-late-${Date.now()}`,
				userId: fx.apiUser.id,
				scenarioId: fx.scenarios.procurementDiscovery.id,
				score: 81,
				durationSeconds: 240,
				valid: true,
				programId: null,
				createdAt: Date.parse('2026-11-23T15:00:00Z'),
			};
			sessions.push(added);
			try {
				const { items, requests } = await runAction(ctx, 'sessions on a day', {
					resource: 'session',
					operation: 'getAll',
					returnAll: true,
					// What n8n 2.x's date-time picker stores when a day is clicked (value format YYYY-MM-DDTHH:mm:ss).
					filters: { start_date: '2026-11-23T00:00:00', end_date: '2026-11-23T00:00:00' },
				});
				const sent = requests.find((r) => r.path === '/sessions');
				expectEqual(
					[sent?.query.start_date, sent?.query.end_date],
					['2026-11-23T00:00:00.000Z', '2026-11-23T23:59:59.000Z'],
					'the bounds sent',
				);
				expectEqual(
					items.map((s) => s.id),
					[added.id],
					'sessions of that day',
				);
				return `end_date ${String(sent?.query.end_date)}`;
			} finally {
				sessions.splice(sessions.indexOf(added), 1);
			}
		},
	);
}
