/** Workflow JSON the suite sends to n8n's public API. Node type names are the packed package's. */
import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from './api';

export const PACKAGE = 'n8n-nodes-workspace-practice';
export const ACTION_TYPE = `${PACKAGE}.workspacePractice`;
export const TOOL_TYPE = `${PACKAGE}.workspacePracticeTool`;
export const JOB_TRIGGER_TYPE = `${PACKAGE}.workspacePracticeJobTrigger`;
export const POLL_TRIGGER_TYPE = `${PACKAGE}.workspacePracticeTrigger`;

export type Params = Record<string, unknown>;

export interface CredentialRef {
	id: string;
	name: string;
}

export function locator(value: string, mode = 'id'): Params {
	return { __rl: true, mode, value };
}

export function actionNode(
	name: string,
	parameters: Params,
	credential: CredentialRef,
	position: [number, number] = [260, 0],
): Params {
	return {
		id: randomUUID(),
		name,
		type: ACTION_TYPE,
		typeVersion: 1,
		position,
		parameters,
		credentials: { workspacePracticeApi: credential },
	};
}

/** A POST webhook that answers with every item of the last node: a workflow becomes a function call. */
export function webhookNode(path: string): Params {
	return {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: 'allEntries',
			options: {},
		},
	};
}

export function chain(name: string, nodes: Params[]): WorkflowJson {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name as string] = {
			main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]],
		};
	}
	return { name, nodes, connections };
}

/** Webhook → one action node: POST to the path runs the operation and answers with its items. */
export function operationWorkflow(
	name: string,
	path: string,
	parameters: Params,
	credential: CredentialRef,
): WorkflowJson {
	return chain(name, [webhookNode(path), actionNode('Workspace Practice', parameters, credential)]);
}
