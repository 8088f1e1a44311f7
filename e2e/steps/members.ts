/**
 * The member picker in a real n8n: "From List" through n8n's own resource-locator endpoint (the call
 * the editor makes), against a workspace of 608 members, then each mode in a running workflow, and a
 * bad value stopped before any request with the field named.
 */
import { startSimulator } from '../../simulator';
import type { SuiteContext } from '../context';
import { requireCredential, uniquePath } from '../context';
import { CheckError, expect } from '../harness';
import {
	ACTION_TYPE,
	locator,
	operationWorkflow,
	type CredentialRef,
	type Params,
} from '../../scripts/n8n/workflows';

interface SearchResult {
	results: Array<{ name: string; value: string }>;
	paginationToken?: string | null;
}

/** What the editor asks when a From List is opened or searched (internal REST, cookie auth). */
async function resourceLocatorResults(
	ctx: SuiteContext,
	credential: CredentialRef,
	methodName: string,
	path: string,
	currentNodeParameters: Params,
	filter?: string,
	paginationToken?: string,
): Promise<SearchResult> {
	const res = await ctx.api.raw('/rest/dynamic-node-parameters/resource-locator-results', {
		method: 'POST',
		json: {
			nodeTypeAndVersion: { name: ACTION_TYPE, version: 1 },
			path,
			methodName,
			currentNodeParameters,
			credentials: { workspacePracticeApi: credential },
			...(filter === undefined ? {} : { filter }),
			...(paginationToken === undefined ? {} : { paginationToken }),
		},
	});
	if (res.status !== 200)
		throw new CheckError(`n8n answered ${res.status} ${JSON.stringify(res.body)}`);
	return (res.body as { data: SearchResult }).data;
}

/** Runs Webhook → one operation; returns the items, or the execution's error message when it failed. */
async function runOperation(
	ctx: SuiteContext,
	label: string,
	parameters: Params,
): Promise<{ items?: Params[]; error?: string }> {
	const { api } = ctx;
	const path = uniquePath(`members-${label}`);
	const workflow = await api.createWorkflow(
		operationWorkflow(`e2e members ${label}`, path, parameters, requireCredential(ctx)),
	);
	try {
		await api.activate(workflow.id);
		const res = await api.callWebhook(path);
		if (res.status === 200) return { items: res.body as Params[] };
		const [execution] = await api.executions(workflow.id);
		const error = execution?.data?.resultData.error as { message?: string } | undefined;
		return { error: error?.message ?? `HTTP ${res.status} ${JSON.stringify(res.body)}` };
	} finally {
		await api.deactivate(workflow.id).catch(() => undefined);
		await api.deleteWorkflow(workflow.id).catch(() => undefined);
	}
}

export async function memberSteps(ctx: SuiteContext): Promise<void> {
	const { api, sim, report, fx } = ctx;
	const createForm = { resource: 'scenarioJob', operation: 'create' };

	// A second workspace with 600 more members, behind a credential of its own.
	const big = await startSimulator({ dataSize: { members: 600 } });
	try {
		const bigCredential = await api.createCredential(
			'Workspace Practice (608 members)',
			'workspacePracticeApi',
			{
				baseUrl: big.baseUrl,
				apiKey: big.apiKey,
			},
		);
		await report.step(
			"members: From List through n8n's resource-locator endpoint pages past 500 members for a search",
			async () => {
				const plain = await resourceLocatorResults(
					ctx,
					bigCredential,
					'searchMembers',
					'parameters.userEmail',
					createForm,
				);
				expect(plain.results.length === 100, `a first page of 100, got ${plain.results.length}`);
				expect(
					plain.results[0].value === 'jane@acme.com',
					`e-mails as values, got ${plain.results[0].value}`,
				);
				expect(
					plain.paginationToken === '2',
					`token "2" for the next page, got ${String(plain.paginationToken)}`,
				);
				big.control.clearRequests();
				const found = await resourceLocatorResults(
					ctx,
					bigCredential,
					'searchMembers',
					'parameters.userEmail',
					createForm,
					'user0055',
				);
				const values = found.results.map((r) => r.value);
				expect(
					values.length === 10 && values.every((v) => /^user0055\d@acme\.com$/.test(v)),
					`user00550…59, got ${values.join(', ')}`,
				);
				expect(!found.paginationToken, 'the search read to the end of the list');
				const pages = big.control.requests({ path: '/workspace/members' }).map((r) => r.query.page);
				expect(
					pages.join(',') === '1,2,3,4,5,6,7',
					`pages 1–7 in one call, read ${pages.join(',')}`,
				);
				return `no filter: 100 of 608 and a token; "user0055": 10 members from page 6, pages ${pages.join(',')} read in one call`;
			},
		);
	} finally {
		await big.close();
	}

	const credential = requireCredential(ctx);
	const jane = fx.members.find((m) => m.email === 'jane@acme.com');
	if (!jane) throw new Error('the seed has no jane@acme.com');
	const pagesForm = { resource: 'knowledgeHubPage', operation: 'getAll' };

	await report.step(
		'members: From List carries e-mails where the API takes them, user IDs where it takes IDs',
		async () => {
			const emails = await resourceLocatorResults(
				ctx,
				credential,
				'searchMembers',
				'parameters.userEmail',
				createForm,
				'jane',
			);
			const ids = await resourceLocatorResults(
				ctx,
				credential,
				'searchMemberIds',
				'parameters.filters.owner_id',
				pagesForm,
				'Jane Smith',
			);
			expect(
				JSON.stringify(emails.results) ===
					JSON.stringify([{ name: 'Jane Smith <jane@acme.com>', value: 'jane@acme.com' }]),
				JSON.stringify(emails),
			);
			expect(
				JSON.stringify(ids.results) ===
					JSON.stringify([{ name: 'Jane Smith <jane@acme.com>', value: jane.id }]),
				JSON.stringify(ids),
			);
			return `searchMembers → ${emails.results[0].value}, searchMemberIds → ${ids.results[0].value}`;
		},
	);

	const scenarioId = fx.scenarios.procurementDiscovery.id;
	const checkAccess = (member: Params): Params => ({
		resource: 'scenario',
		operation: 'checkAccess',
		scenario: locator(scenarioId),
		userEmail: member,
	});

	await report.step(
		'members: each mode in a running workflow sends what the API takes',
		async () => {
			const sent: string[] = [];
			for (const [label, member] of [
				['list', locator('dev@acme.com', 'list')],
				['email', locator('dev@acme.com', 'email')],
			] as const) {
				sim.control.clearRequests();
				const { items, error } = await runOperation(ctx, `check-${label}`, checkAccess(member));
				expect(
					!error && items?.[0]?.user_email === 'dev@acme.com',
					`Check Access ${label}: ${error ?? JSON.stringify(items)}`,
				);
				const query = sim.control.requests({ path: `/scenarios/${scenarioId}/access` })[0]?.query;
				expect(query?.user_email === 'dev@acme.com', `user_email sent: ${JSON.stringify(query)}`);
				sent.push(`${label} → user_email`);
			}
			sim.control.clearRequests();
			const owner = await runOperation(ctx, 'owner-id', {
				...pagesForm,
				filters: { owner_id: locator(jane.id, 'id') },
			});
			expect(!owner.error, `Page Get Many: ${owner.error}`);
			const ownerQuery = sim.control.requests({ path: '/knowledge-hub/pages' })[0]?.query;
			expect(ownerQuery?.owner_id === jane.id, `owner_id sent: ${JSON.stringify(ownerQuery)}`);
			sent.push('id → owner_id');
			sim.control.clearRequests();
			const rows = await runOperation(ctx, 'rows', {
				resource: 'assignment',
				operation: 'getAll',
				returnAll: true,
				filters: {
					members: {
						member: [
							{ member: locator('carla@acme.com', 'list') },
							{ member: locator(jane.id, 'id') },
							{ member: locator('dev@acme.com', 'email') },
						],
					},
				},
			});
			expect(!rows.error, `Assignment Get Many: ${rows.error}`);
			const rowsQuery = sim.control.requests({ path: '/scenarios/assignments' })[0]?.query;
			expect(
				rowsQuery?.user_ids === jane.id && rowsQuery?.user_emails === 'carla@acme.com,dev@acme.com',
				`user_ids / user_emails sent: ${JSON.stringify(rowsQuery)}`,
			);
			sent.push('Members rows → user_emails + user_ids');
			return sent.join('; ');
		},
	);

	await report.step(
		'members: a bad e-mail is refused naming the field, before any request',
		async () => {
			sim.control.clearRequests();
			const { error } = await runOperation(
				ctx,
				'bad',
				checkAccess(locator('={{ "dev-at-acme" }}', 'email')),
			);
			expect(
				error === 'Member: must be an e-mail address, got "dev-at-acme"',
				`execution error: ${String(error)}`,
			);
			expect(
				sim.control.requests({ path: `/scenarios/${scenarioId}/access` }).length === 0,
				'a request was sent',
			);
			return error;
		},
	);
}
