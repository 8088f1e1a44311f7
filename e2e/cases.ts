/**
 * One end-to-end case per operation of the action node: the form values a user would set, the request
 * the simulator must receive, and what the items out must show. Keyed "resource:operation"; the suite
 * fails for any operation of the node that has no case here.
 */
import { SEED_NOW, type Fixtures, type RunningSimulator } from '../simulator';
import { expect, expectEqual } from './harness';
import { locator, type Params } from '../scripts/n8n/workflows';

export type Item = Record<string, unknown>;

export interface CaseContext {
	fx: Fixtures;
	sim: RunningSimulator;
}

export interface OperationCase {
	params: (ctx: CaseContext) => Params | Promise<Params>;
	/** Method and path (regex over the path without /rest/v1) of the request the operation must send. */
	request: [string, RegExp];
	/** Checks the items the workflow answered with; returns a short summary for the report line. */
	check: (items: Item[], ctx: CaseContext) => string;
}

const rows = (items: Item[], min: number, what: string): void => {
	expect(
		Array.isArray(items) && items.length >= min,
		`expected at least ${min} ${what}, got ${JSON.stringify(items).slice(0, 300)}`,
	);
};

const one = (items: Item[]): Item => {
	expect(
		Array.isArray(items) && items.length === 1,
		`expected one item, got ${JSON.stringify(items).slice(0, 300)}`,
	);
	return items[0];
};

/** Reads a simulator list directly (for ids the fixtures do not name, such as sessions). */
async function firstId(ctx: CaseContext, path: string): Promise<string> {
	const res = await fetch(`${ctx.sim.baseUrl}${path}?page_size=1`, {
		headers: { authorization: `Bearer ${ctx.sim.apiKey}` },
	});
	const body = (await res.json()) as { data: Array<{ id: string }> };
	const id = body.data[0]?.id;
	if (!id) throw new Error(`the simulator has no rows at ${path}`);
	return id;
}

const UUID = '[0-9a-f-]{36}';

export const CASES: Record<string, OperationCase> = {
	'workspace:get': {
		params: () => ({ resource: 'workspace', operation: 'get' }),
		request: ['GET', /^\/workspace$/],
		check: (items, { fx }) => {
			const ws = one(items);
			expectEqual(ws.id, fx.workspace.id, 'workspace id');
			return `workspace "${String(ws.name)}"`;
		},
	},
	'member:getAll': {
		params: ({ fx }) => ({
			resource: 'member',
			operation: 'getAll',
			returnAll: true,
			filters: { group_ids: [fx.groups.sales.id] },
		}),
		request: ['GET', /^\/workspace\/members$/],
		check: (items, { sim, fx }) => {
			rows(items, 1, 'members');
			const sent = sim.control.requests({ method: 'GET', path: '/workspace/members' }).at(-1);
			expectEqual(sent?.query.group_ids, fx.groups.sales.id, 'group_ids sent');
			return `${items.length} members of ${fx.groups.sales.name}`;
		},
	},
	'group:getAll': {
		params: () => ({ resource: 'group', operation: 'getAll', returnAll: true }),
		request: ['GET', /^\/workspace\/groups$/],
		check: (items, { fx }) => {
			expect(
				items.some((g) => g.id === fx.groups.sales.id),
				'the Sales group is listed',
			);
			return `${items.length} groups`;
		},
	},
	'collection:getAll': {
		params: () => ({ resource: 'collection', operation: 'getAll', returnAll: false, limit: 2 }),
		request: ['GET', /^\/collections$/],
		check: (items) => {
			expectEqual(items.length, 2, 'items with Limit 2');
			return `Limit 2 → ${items.map((c) => c.name).join(', ')}`;
		},
	},
	'context:getAll': {
		params: () => ({ resource: 'context', operation: 'getAll', returnAll: true }),
		request: ['GET', /^\/contexts$/],
		check: (items, { fx }) => {
			expectEqual(items.length, fx.contexts.length, 'contexts');
			return `${items.length} contexts`;
		},
	},
	'assignment:getAll': {
		params: () => ({
			resource: 'assignment',
			operation: 'getAll',
			returnAll: true,
			filters: { status: ['past_due'] },
		}),
		request: ['GET', /^\/scenarios\/assignments$/],
		check: (items, { fx }) => {
			rows(items, 1, 'assignments');
			expect(
				items.every((a) => a.status === 'past_due'),
				'every assignment is past_due',
			);
			expect(
				items.some((a) => a.id === fx.assignments.past_due),
				'the seeded past-due assignment is listed',
			);
			return `${items.length} past-due assignments`;
		},
	},
	'scenario:getAll': {
		params: () => ({ resource: 'scenario', operation: 'getAll', returnAll: true }),
		request: ['GET', /^\/scenarios$/],
		check: (items, { fx }) => {
			expect(
				items.some((s) => s.id === fx.scenarios.procurementDiscovery.id),
				'a seeded scenario is listed',
			);
			expect(
				!items.some((s) => s.id === fx.scenarios.archived.id),
				'the archived scenario is hidden by default',
			);
			return `${items.length} scenarios`;
		},
	},
	'scenario:checkAccess': {
		params: ({ fx }) => ({
			resource: 'scenario',
			operation: 'checkAccess',
			scenario: locator(fx.scenarios.procurementDiscovery.id),
			userEmail: fx.apiUser.email,
		}),
		request: ['GET', /^\/scenarios\/[^/]+\/access$/],
		check: (items, { fx }) => {
			const result = one(items);
			expectEqual(result.user_email, fx.apiUser.email, 'user_email');
			expect(typeof result.permissions === 'object', 'permissions object');
			return `permissions ${JSON.stringify(result.permissions)}`;
		},
	},
	'scenario:grantAccess': {
		params: ({ fx }) => ({
			resource: 'scenario',
			operation: 'grantAccess',
			scenario: locator(fx.scenarios.coldCall.id),
			userEmail: fx.members[1].email,
			permissionLevel: 'view',
		}),
		request: ['POST', /^\/scenarios\/[^/]+\/access$/],
		check: (items, { fx }) => {
			const result = one(items);
			expectEqual(result.granted, true, 'granted');
			expectEqual(result.user_email, fx.members[1].email, 'user_email');
			return `granted ${String(result.permission_level)} to ${String(result.user_email)}`;
		},
	},
	'scenario:assign': {
		params: ({ fx }) => ({
			resource: 'scenario',
			operation: 'assign',
			scenario: locator(fx.scenarios.coldCall.id),
			userEmail: fx.members[1].email,
			dueDate: '2030-01-31T17:00:00.000Z',
		}),
		request: ['POST', /^\/scenarios\/[^/]+\/assignments$/],
		check: (items) => {
			const result = one(items);
			expect(
				result.id || result.assignment || result.status,
				`an assignment came back: ${JSON.stringify(result)}`,
			);
			return `assignment ${String(result.id ?? '')} ${String(result.status ?? '')}`.trim();
		},
	},
	'scenario:getAnalyticsSummary': {
		params: ({ fx }) => ({
			resource: 'scenario',
			operation: 'getAnalyticsSummary',
			scenario: locator(fx.scenarios.procurementDiscovery.id),
		}),
		request: ['GET', /^\/scenarios\/[^/]+\/analytics\/summary$/],
		check: (items) => {
			const summary = one(items);
			return `summary keys: ${Object.keys(summary).slice(0, 5).join(', ')}`;
		},
	},
	'scenario:getParticipantAnalytics': {
		params: ({ fx }) => ({
			resource: 'scenario',
			operation: 'getParticipantAnalytics',
			scenario: locator(fx.scenarios.procurementDiscovery.id),
			returnAll: true,
		}),
		request: ['GET', /^\/scenarios\/[^/]+\/analytics\/participants$/],
		check: (items) => {
			rows(items, 1, 'participant rows');
			expect(
				items.every((r) => typeof r.session_count === 'number'),
				'rows carry session_count',
			);
			return `${items.length} participants`;
		},
	},
	'session:getAll': {
		params: () => ({ resource: 'session', operation: 'getAll', returnAll: false, limit: 3 }),
		request: ['GET', /^\/sessions$/],
		check: (items) => {
			expectEqual(items.length, 3, 'sessions with Limit 3');
			return '3 sessions';
		},
	},
	'session:get': {
		params: async (ctx) => ({
			resource: 'session',
			operation: 'get',
			session: locator(await firstId(ctx, '/sessions')),
		}),
		request: ['GET', /^\/sessions\/[^/]+$/],
		check: (items) => {
			const session = one(items);
			expect(typeof session.id === 'string', 'session id');
			return `session ${String(session.id)}`;
		},
	},
	'skill:getAll': {
		params: () => ({ resource: 'skill', operation: 'getAll', returnAll: true }),
		request: ['GET', /^\/skills$/],
		check: (items, { fx }) => {
			expect(
				items.some((s) => s.id === fx.skills.discovery.id),
				'the Discovery skill is listed',
			);
			return `${items.length} skills`;
		},
	},
	'skill:getProficiency': {
		params: ({ fx }) => ({
			resource: 'skill',
			operation: 'getProficiency',
			skill: locator(fx.skills.discovery.id),
			returnAll: true,
		}),
		request: ['GET', new RegExp(`^/skills/${UUID}/proficiency$`)],
		check: (items) => {
			rows(items, 1, 'proficiency rows');
			expect(
				items.every((r) => typeof r.tier === 'string'),
				'rows carry a tier',
			);
			return `${items.length} rows, tiers ${[...new Set(items.map((r) => r.tier))].join('/')}`;
		},
	},
	'skill:getTierChanges': {
		// The seeded practice moves tiers in the two weeks before the seed's now.
		params: () => ({
			resource: 'skill',
			operation: 'getTierChanges',
			fromDate: new Date(SEED_NOW - 14 * 86_400_000).toISOString(),
			toDate: new Date(SEED_NOW).toISOString(),
		}),
		request: ['GET', new RegExp(`^/skills/${UUID}/proficiency$`)],
		check: (items) => {
			rows(items, 1, 'tier changes');
			expect(
				items.every((r) => ['up', 'down', 'new'].includes(String(r.direction))),
				'each change has a direction',
			);
			return `${items.length} changes: ${items.map((r) => r.direction).join(', ')}`;
		},
	},
	'knowledgeHubFolder:getAll': {
		params: () => ({ resource: 'knowledgeHubFolder', operation: 'getAll', returnAll: true }),
		request: ['GET', /^\/knowledge-hub\/folders$/],
		check: (items, { fx }) => {
			expect(
				items.some((f) => f.id === fx.folders.sales.id),
				'the Sales folder is listed',
			);
			return `${items.length} folders`;
		},
	},
	'knowledgeHubFolder:get': {
		params: ({ fx }) => ({
			resource: 'knowledgeHubFolder',
			operation: 'get',
			folderId: locator(fx.folders.sales.id),
		}),
		request: ['GET', new RegExp(`^/knowledge-hub/folders/${UUID}$`)],
		check: (items, { fx }) => {
			expectEqual(one(items).id, fx.folders.sales.id, 'folder id');
			return `folder "${String(items[0].name)}"`;
		},
	},
	'knowledgeHubPage:getAll': {
		params: () => ({
			resource: 'knowledgeHubPage',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'published' },
		}),
		request: ['GET', /^\/knowledge-hub\/pages$/],
		check: (items) => {
			rows(items, 1, 'pages');
			expect(
				items.every((p) => p.status === 'published'),
				'every page is published',
			);
			return `${items.length} published pages`;
		},
	},
	'knowledgeHubPage:get': {
		params: ({ fx }) => ({
			resource: 'knowledgeHubPage',
			operation: 'get',
			pageId: locator(fx.pages.publishedWithDraft.id),
			options: { includeDraft: true },
		}),
		request: ['GET', new RegExp(`^/knowledge-hub/pages/${UUID}$`)],
		check: (items, { fx }) => {
			const page = one(items);
			expectEqual(page.id, fx.pages.publishedWithDraft.id, 'page id');
			expect(page.draft && typeof page.draft === 'object', 'Include Draft adds the draft');
			return `"${String(page.title)}" with its draft`;
		},
	},
	'knowledgeHubPage:getVersions': {
		params: ({ fx }) => ({
			resource: 'knowledgeHubPage',
			operation: 'getVersions',
			pageId: locator(fx.pages.published.id),
			returnAll: true,
		}),
		request: ['GET', new RegExp(`^/knowledge-hub/pages/${UUID}/versions$`)],
		check: (items) => {
			expectEqual(items.length, 3, 'versions of the seeded published page');
			return `versions ${items.map((v) => v.version).join(', ')}`;
		},
	},
	'knowledgeHubPage:create': {
		params: () => ({
			resource: 'knowledgeHubPage',
			operation: 'create',
			title: 'E2E onboarding checklist',
			additionalFields: { content: '# Day one\n- meet the team' },
		}),
		request: ['POST', /^\/knowledge-hub\/pages$/],
		check: (items) => {
			const page = one(items);
			expectEqual(page.title, 'E2E onboarding checklist', 'title');
			return `page ${String(page.id)} (${String(page.status)})`;
		},
	},
	'knowledgeHubPage:createOrUpdate': {
		params: () => ({
			resource: 'knowledgeHubPage',
			operation: 'createOrUpdate',
			title: 'E2E sync target',
			content: '# Synced\n\nFrom the end-to-end suite.',
		}),
		request: ['POST', /^\/knowledge-hub\/pages$/],
		check: (items) => {
			const page = one(items);
			expectEqual(page.sync_result, 'created', 'sync_result of a missing title');
			expectEqual(page.status, 'published', 'status (Publish is on by default)');
			return `page ${String(page.id)} created and published`;
		},
	},
	'knowledgeHubPage:update': {
		params: ({ fx }) => ({
			resource: 'knowledgeHubPage',
			operation: 'update',
			pageId: locator(fx.pages.draftNeverPublished.id),
			updateFields: { content: 'Published from the end-to-end suite', status: 'published' },
		}),
		request: ['PATCH', new RegExp(`^/knowledge-hub/pages/${UUID}$`)],
		check: (items) => {
			const page = one(items);
			expectEqual(page.status, 'published', 'status');
			expectEqual(page.version, 1, 'version after the first publication');
			return `published as version ${String(page.version)}`;
		},
	},
	'knowledgeHubPage:archive': {
		params: ({ fx }) => ({
			resource: 'knowledgeHubPage',
			operation: 'archive',
			pageId: locator(fx.pages.aiGenerated.id),
		}),
		request: ['DELETE', new RegExp(`^/knowledge-hub/pages/${UUID}$`)],
		check: (items, { fx }) => {
			const result = one(items);
			expectEqual(result.id, fx.pages.aiGenerated.id, 'archived id');
			return JSON.stringify(result).slice(0, 80);
		},
	},
	'knowledgeHubSource:getAll': {
		params: () => ({
			resource: 'knowledgeHubSource',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'ready' },
		}),
		request: ['GET', /^\/knowledge-hub\/sources$/],
		check: (items) => {
			rows(items, 1, 'sources');
			expect(
				items.every((s) => s.status === 'ready'),
				'every source is ready',
			);
			return `${items.length} ready sources`;
		},
	},
	'knowledgeHubSource:get': {
		params: ({ fx }) => ({
			resource: 'knowledgeHubSource',
			operation: 'get',
			sourceId: locator(fx.sources.urlReady.id),
			options: { includeContent: true },
		}),
		request: ['GET', new RegExp(`^/knowledge-hub/sources/${UUID}$`)],
		check: (items, { fx }) => {
			const source = one(items);
			expectEqual(source.id, fx.sources.urlReady.id, 'source id');
			expect(typeof source.content === 'string', 'Include Content adds the extracted text');
			return `"${String(source.title)}" with ${String(source.content).length} characters of content`;
		},
	},
	'knowledgeHubSource:createFromUrl': {
		params: ({ fx }) => ({
			resource: 'knowledgeHubSource',
			operation: 'createFromUrl',
			url: fx.sources.urlReady.url,
			title: 'Already ingested',
		}),
		request: ['POST', /^\/knowledge-hub\/sources$/],
		check: (items, { fx }) => {
			const source = one(items);
			expectEqual(source.id, fx.sources.urlReady.id, 'an existing URL returns the existing source');
			expectEqual(source.is_new, false, 'is_new of an existing URL');
			expectEqual(source.status, 'ready', 'status (already ready: no wait)');
			return `existing source returned (${JSON.stringify(source.is_new ?? source.isNew ?? 'no is_new')})`;
		},
	},
	'knowledgeHubSource:archive': {
		params: ({ fx }) => ({
			resource: 'knowledgeHubSource',
			operation: 'archive',
			sourceId: locator(fx.sources.videoReady.id),
		}),
		request: ['DELETE', new RegExp(`^/knowledge-hub/sources/${UUID}$`)],
		check: (items, { fx }) => {
			const result = one(items);
			expectEqual(result.id, fx.sources.videoReady.id, 'archived id');
			expectEqual(result.deleted, true, 'deleted');
			return '{id, deleted: true}';
		},
	},
	'studioSession:create': {
		params: ({ fx }) => ({
			resource: 'studioSession',
			operation: 'create',
			userEmail: fx.apiUser.email,
			prompt: 'Discovery call with a procurement lead who has a tight budget',
		}),
		request: ['POST', /^\/scenario-studio$/],
		check: (items) => {
			const session = one(items);
			expect(
				typeof session.url === 'string' && session.url.startsWith('http'),
				'a studio URL to open',
			);
			return `session URL ${String(session.url)}`;
		},
	},
	'scenarioJob:create': {
		params: ({ fx }) => ({
			resource: 'scenarioJob',
			operation: 'create',
			userEmail: fx.apiUser.email,
			prompt: 'Renewal negotiation with a CFO asking for a 20% discount',
			waitForCompletion: 'off',
		}),
		request: ['POST', /^\/scenario-studio\/jobs$/],
		check: (items) => {
			const job = one(items);
			expect(typeof job.id === 'string', 'job id');
			expect(
				['queued', 'processing', 'completed'].includes(String(job.status)),
				`job status ${String(job.status)}`,
			);
			return `job ${String(job.id)} ${String(job.status)}`;
		},
	},
	'scenarioJob:get': {
		params: async (ctx) => ({
			resource: 'scenarioJob',
			operation: 'get',
			jobId: locator(await createJob(ctx)),
		}),
		request: ['GET', /^\/scenario-studio\/jobs\/[^/]+$/],
		check: (items) => {
			const job = one(items);
			expect(typeof job.status === 'string', 'job status');
			return `job ${String(job.id)} ${String(job.status)}`;
		},
	},
	'scenarioJob:cancel': {
		params: async (ctx) => ({
			resource: 'scenarioJob',
			operation: 'cancel',
			jobId: locator(await createJob(ctx)),
		}),
		request: ['DELETE', /^\/scenario-studio\/jobs\/[^/]+$/],
		check: (items) => {
			const job = one(items);
			expectEqual(job.status, 'cancelled', 'status');
			return `job ${String(job.id)} cancelled`;
		},
	},
};

/** A fresh queued job, made directly at the simulator, for Get and Cancel to act on. */
async function createJob(ctx: CaseContext): Promise<string> {
	const res = await fetch(`${ctx.sim.baseUrl}/scenario-studio/jobs`, {
		method: 'POST',
		headers: { authorization: `Bearer ${ctx.sim.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({
			user_email: ctx.fx.apiUser.email,
			prompt: 'A job for the Get and Cancel cases',
		}),
	});
	const job = (await res.json()) as { id?: string };
	if (!job.id) throw new Error(`the simulator did not create a job: ${JSON.stringify(job)}`);
	ctx.sim.control.setJobState(job.id, 'queued');
	return job.id;
}
