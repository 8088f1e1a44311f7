import type { IWorkflowBase, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { ExecutionLifecycleHooks } from 'n8n-core';

import type { TestCredentialsHelper } from './credentialsHelper';

/** n8n's URLs for webhooks and waiting executions; tests that resume executions override them. */
export interface TestUrls {
	webhookBaseUrl: string;
	webhookWaitingBaseUrl: string;
	webhookTestBaseUrl: string;
}

const DEFAULT_URLS: TestUrls = {
	webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
	webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
	webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
};

/**
 * The pieces of the n8n server that n8n-core's engine calls into. Only what our nodes touch is real
 * (credentials, URLs, hooks); the rest refuses loudly if it is ever reached.
 */
export function makeAdditionalData(
	credentialsHelper: TestCredentialsHelper,
	workflowData: IWorkflowBase,
	executionId: string,
	urls: Partial<TestUrls> = {},
): IWorkflowExecuteAdditionalData {
	const unused = (name: string) => () => {
		throw new Error(`${name} is not available in engine tests`);
	};
	const data: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper,
		executionId,
		hooks: new ExecutionLifecycleHooks('manual', executionId, workflowData),
		variables: {},
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		...DEFAULT_URLS,
		...urls,
		executeWorkflow: unused('executeWorkflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: unused('startRunnerTask'),
	};
	// The interface has many optional server features; the ones above are all our nodes reach.
	return data as IWorkflowExecuteAdditionalData;
}
