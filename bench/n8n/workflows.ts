/**
 * The workflows of the real-n8n bench, each in the shape a user would build: this package's node, and
 * what a user builds with n8n's own nodes instead (HTTP Request with a Header Auth credential, its
 * built-in pagination, a Wait + IF loop). Every one starts at a Webhook, so a run is one HTTP call.
 */
import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from '../../scripts/n8n/api';

export const PACKAGE = 'n8n-nodes-workspace-practice';

type Json = Record<string, unknown>;

export interface Credentials {
	/** workspacePracticeApi */
	node: { id: string; name: string };
	/** httpHeaderAuth with Authorization: Bearer <key> */
	header: { id: string; name: string };
	/** The service's base URL (for the HTTP Request node's URLs). */
	baseUrl: string;
}

let x = 0;
function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Json,
	extra: Json = {},
): Json {
	x += 200;
	return { id: randomUUID(), name, type, typeVersion, position: [x, 0], parameters, ...extra };
}

/**
 * `lastNode` answers when the execution ends (the wall time of a run), with the first item only (the
 * items are counted from the saved execution, not shipped back); `onReceived` answers at once.
 */
export function webhook(path: string, responseMode: 'lastNode' | 'onReceived' = 'lastNode'): Json {
	const parameters: Json = { httpMethod: 'POST', path, responseMode, options: {} };
	if (responseMode === 'lastNode') parameters.responseData = 'firstEntryJson';
	return node('Webhook', 'n8n-nodes-base.webhook', 2, parameters, { webhookId: randomUUID() });
}

/** One item per entry of the posted `items` array. */
export function splitOut(name: string, field: string): Json {
	return node(name, 'n8n-nodes-base.splitOut', 1, {
		fieldToSplitOut: field,
		include: 'noOtherFields',
		options: {},
	});
}

export function packageNode(name: string, parameters: Json, credentials: Credentials): Json {
	return node(name, `${PACKAGE}.workspacePractice`, 1, parameters, {
		credentials: { workspacePracticeApi: credentials.node },
	});
}

/** n8n's HTTP Request node (v4.2) with the Header Auth credential, at its defaults otherwise. */
export function httpRequest(
	name: string,
	method: string,
	url: string,
	credentials: Credentials,
	extra: Json = {},
): Json {
	return node(
		name,
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method,
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			options: {},
			...extra,
		},
		{ credentials: { httpHeaderAuth: credentials.header } },
	);
}

export function chain(name: string, nodes: Json[]): WorkflowJson {
	const connections: Json = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name as string] = {
			main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]],
		};
	}
	return { name, nodes, connections };
}

/**
 * The node's Batching where the simulator has no rate limits: pacing off (items in parallel as by
 * default), as a user sets it for a service without the minute limits.
 */
export const NO_PACING: Json = { requestsPerMinute: 0, creationsPerMinute: 0 };

/**
 * Per item: Webhook → Split Out (the posted items) → one GET /workspace per item. `batching` is the
 * node's Batching setting; without it the parameter is absent, as in a node a user just added (its
 * defaults: 10 items in parallel, paced to the deployed limits).
 */
export function perItemWorkflows(
	credentials: Credentials,
	path: string,
	batching?: Json,
): { node: WorkflowJson; http: WorkflowJson } {
	return {
		node: chain('bench per item: Workspace → Get', [
			webhook(`${path}-node`),
			splitOut('Items', 'body.items'),
			packageNode(
				'Workspace Practice',
				{ resource: 'workspace', operation: 'get', ...(batching ? { batching } : {}) },
				credentials,
			),
		]),
		http: chain('bench per item: HTTP Request GET /workspace', [
			webhook(`${path}-http`),
			splitOut('Items', 'body.items'),
			httpRequest('HTTP Request', 'GET', `${credentials.baseUrl}/workspace`, credentials),
		]),
	};
}

/**
 * Return All: the package's Scenario → Get Many with Return All, against the HTTP Request node's
 * pagination as n8n's docs show it (page = $pageCount + 1 in the query, page_size 100, complete when
 * the page read is the last one), followed by a Split Out of `data` so both give one item per scenario.
 */
export function returnAllWorkflows(
	credentials: Credentials,
	path: string,
): { node: WorkflowJson; http: WorkflowJson } {
	return {
		node: chain('bench Return All: Scenario → Get Many', [
			webhook(`${path}-node`),
			packageNode(
				'Workspace Practice',
				{ resource: 'scenario', operation: 'getAll', returnAll: true, batching: NO_PACING },
				credentials,
			),
		]),
		http: chain('bench Return All: HTTP Request pagination', [
			webhook(`${path}-http`),
			httpRequest('HTTP Request', 'GET', `${credentials.baseUrl}/scenarios`, credentials, {
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'page_size', value: '100' }] },
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
							},
							paginationCompleteWhen: 'other',
							completeExpression:
								'={{ $response.body.pagination.page >= $response.body.pagination.total_pages }}',
						},
					},
				},
			}),
			splitOut('Scenarios', 'data'),
		]),
	};
}

/** Scenario Job → Create waiting By Polling or Until Callback; the prompt comes from the call. */
export function jobWaitWorkflow(
	mode: 'poll' | 'callback',
	credentials: Credentials,
	path: string,
	email: string,
): WorkflowJson {
	return chain(`bench job wait: ${mode}`, [
		webhook(path, 'onReceived'),
		packageNode(
			'Create Scenario',
			{
				resource: 'scenarioJob',
				operation: 'create',
				userEmail: email,
				prompt: '={{ $json.body.prompt }}',
				waitForCompletion: mode,
			},
			credentials,
		),
	]);
}

/**
 * What n8n's forum recommends without this package: HTTP Request POST the job, then Wait 30 s → GET the
 * job → IF it ended, else back to the Wait.
 */
export function naiveJobWaitWorkflow(
	credentials: Credentials,
	path: string,
	email: string,
	waitSeconds: number,
): WorkflowJson {
	const hook = webhook(path, 'onReceived');
	const create = httpRequest(
		'Create Job',
		'POST',
		`${credentials.baseUrl}/scenario-studio/jobs`,
		credentials,
		{
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ user_email: ${JSON.stringify(email)}, prompt: $json.body.prompt }) }}`,
		},
	);
	const wait = node(
		'Wait',
		'n8n-nodes-base.wait',
		1.1,
		{ resume: 'timeInterval', amount: waitSeconds, unit: 'seconds' },
		{ webhookId: randomUUID() },
	);
	const get = httpRequest(
		'Get Job',
		'GET',
		`={{ ${JSON.stringify(`${credentials.baseUrl}/scenario-studio/jobs/`)} + $('Create Job').first().json.id }}`,
		credentials,
	);
	const done = node('Ended?', 'n8n-nodes-base.if', 2.2, {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
			conditions: [
				{
					id: randomUUID(),
					leftValue: '={{ ["completed", "failed", "cancelled"].includes($json.status) }}',
					rightValue: true,
					operator: { type: 'boolean', operation: 'true', singleValue: true },
				},
			],
			combinator: 'and',
		},
		options: {},
	});
	const workflow = chain('bench job wait: HTTP Request + Wait + IF', [
		hook,
		create,
		wait,
		get,
		done,
	]);
	// IF's false branch goes back to the Wait.
	(workflow.connections as Json)['Ended?'] = {
		main: [[], [{ node: 'Wait', type: 'main', index: 0 }]],
	};
	return workflow;
}

/**
 * The Job Trigger with a header secret and the API confirmation on (its defaults otherwise); with no
 * secret, bare: Authentication None and Confirm With API off, so it reads no credential and sends no
 * request (the callbacksBare diagnosis).
 */
export function jobTriggerWorkflow(
	credentials: Credentials,
	secret?: { id: string; name: string },
): { workflow: WorkflowJson; webhookId: string } {
	const webhookId = randomUUID();
	const trigger = node(
		'Job Trigger',
		`${PACKAGE}.workspacePracticeJobTrigger`,
		2,
		secret
			? { authentication: 'headerSecret', confirmWithApi: true }
			: { authentication: 'none', confirmWithApi: false },
		{
			webhookId,
			...(secret
				? {
						credentials: {
							workspacePracticeApi: credentials.node,
							workspacePracticeWebhookSecretApi: secret,
						},
					}
				: {}),
		},
	);
	return {
		workflow: {
			name: secret ? 'bench queue: job callbacks' : 'bench queue: job callbacks, bare trigger',
			nodes: [trigger],
			connections: {},
		},
		webhookId,
	};
}

/**
 * The peer of the Job Trigger: n8n's own Webhook node (POST, Header Auth, answering on receipt), the
 * only node of its workflow as the Job Trigger is of its own.
 */
export function webhookNodeWorkflow(
	path: string,
	headerAuth: { id: string; name: string },
): WorkflowJson {
	const hook = node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		{
			httpMethod: 'POST',
			path,
			responseMode: 'onReceived',
			authentication: 'headerAuth',
			options: {},
		},
		{ webhookId: randomUUID(), credentials: { httpHeaderAuth: headerAuth } },
	);
	return { name: 'bench queue: job callbacks to the Webhook node', nodes: [hook], connections: {} };
}
