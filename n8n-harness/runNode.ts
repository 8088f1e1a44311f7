import type {
	ExecutionBaseError,
	IBinaryKeyData,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IWorkflowBase,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';
import { randomUUID } from 'node:crypto';

import { makeAdditionalData } from './additionalData';
import type { TestUrls } from './additionalData';
import { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes, START_NODE_TYPE } from './nodeTypes';

export const NODE_NAME = 'Workspace Practice';
export const ACTION_NODE_TYPE = 'n8n-nodes-workspace-practice.workspacePractice';

export interface TestCredentials {
	baseUrl: string;
	apiKey: string;
}

export interface RunNodeOptions {
	parameters: INodeParameters;
	credentials: TestCredentials;
	/** Input items (default: one empty item). */
	input?: IDataObject[];
	continueOnFail?: boolean;
	nodeType?: string;
	/** The execution's ID (default a random one); `null` runs with none, as MCP tool calls do. */
	executionId?: string | null;
	urls?: Partial<TestUrls>;
	/**
	 * The workflow's static data, kept by the caller between runs as n8n keeps an active workflow's
	 * (it saves it after trigger-started runs, not after manual ones). Default: none, as a manual run.
	 */
	staticData?: IDataObject;
	/** The execution mode (default manual; 'trigger' for a run an active workflow's trigger started). */
	mode?: WorkflowExecuteMode;
	/** The workflow's ID and name (default test-workflow, "Engine test"). */
	workflow?: { id: string; name: string };
}

export interface RunNodeResult {
	/** Items of the node's first output. */
	items: INodeExecutionData[];
	/** The error the run ended with, if any. */
	error?: ExecutionBaseError;
	run: IRun;
	credentialsHelper: TestCredentialsHelper;
	workflow: Workflow;
}

/** A trigger-started run begins with the trigger's items already there, as n8n hands them over. */
export function triggerStart(name: string, items: INodeExecutionData[]) {
	return {
		name,
		data: {
			startTime: Date.now(),
			executionTime: 0,
			executionIndex: 0,
			source: [],
			data: { main: [items] },
		},
	};
}

/**
 * Runs Start → our node through n8n-core's real WorkflowExecute, as a manual execution in n8n does,
 * with the credential applied by its real `authenticate` block.
 */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const start: INode = {
		id: randomUUID(),
		name: 'Start',
		type: START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(options.input ?? [{}]) },
	};
	const node: INode = {
		id: randomUUID(),
		name: NODE_NAME,
		type: options.nodeType ?? ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: options.parameters,
		credentials: {
			workspacePracticeApi: { id: 'test-credential', name: 'Workspace Practice (test)' },
		},
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
	const workflowData: IWorkflowBase = {
		id: options.workflow?.id ?? 'test-workflow',
		name: options.workflow?.name ?? 'Engine test',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [start, node],
		connections: { Start: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		settings: {},
		activeVersionId: null,
	};
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		active: false,
		nodeTypes,
		settings: {},
		staticData: options.staticData,
	});
	const credentialsHelper = new TestCredentialsHelper({
		workspacePracticeApi: { ...options.credentials },
	});
	const executionId = options.executionId === undefined ? randomUUID() : options.executionId;
	const additionalData = makeAdditionalData(
		credentialsHelper,
		workflowData,
		executionId ?? '',
		options.urls,
	);
	if (executionId === null) additionalData.executionId = undefined;
	const mode = options.mode ?? 'manual';
	const triggerToStartFrom =
		mode === 'trigger'
			? triggerStart(
					start.name,
					(options.input ?? [{}]).map(({ $binary, ...json }) =>
						$binary ? { json, binary: $binary as IBinaryKeyData } : { json },
					),
				)
			: undefined;
	const run = await new WorkflowExecute(additionalData, mode).run({
		workflow,
		startNode: start,
		triggerToStartFrom,
	});
	const nodeRuns = run.data.resultData.runData[NODE_NAME] ?? [];
	const items = nodeRuns[0]?.data?.main?.[0] ?? [];
	// What n8n would save: the Workflow wraps the static data it was given, so copy it back.
	if (options.staticData) Object.assign(options.staticData, workflow.staticData);
	return { items, error: run.data.resultData.error, run, credentialsHelper, workflow };
}
