/**
 * Runs a whole workflow JSON (as exported from the n8n editor, e.g. examples/*.json) through n8n-core's
 * WorkflowExecute: our nodes from the registry, the few n8n-nodes-base nodes the examples use from
 * stand-ins. A workflow starts at its manual trigger, or at a trigger node with the items that trigger
 * produced (a poll or a webhook call), as n8n starts an active workflow.
 */
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeTypes,
	IRun,
	IWorkflowBase,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { makeAdditionalData, type TestUrls } from './additionalData';
import { baseNodeStandIns } from './baseNodes';
import { TestCredentialsHelper } from './credentialsHelper';
import { registry } from './nodeTypes';
import { triggerStart } from './runNode';
import type { TestCredentials } from './runNode';

export interface WorkflowFile {
	name: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
}

export function readWorkflowFile(path: string): WorkflowFile {
	return JSON.parse(readFileSync(path, 'utf8')) as WorkflowFile;
}

/** Our node types plus the n8n-nodes-base stand-ins. */
export const workflowNodeTypes: INodeTypes = {
	getByName(type) {
		const nodeType = registry[type] ?? baseNodeStandIns[type];
		if (!nodeType)
			throw new Error(
				`Unknown node type ${type}: not one of ours nor a stand-in in n8n-harness/baseNodes.ts`,
			);
		return nodeType;
	},
	getByNameAndVersion(type, version) {
		return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	},
	getKnownTypes() {
		return {};
	},
};

export interface RunWorkflowOptions {
	file: WorkflowFile;
	credentials: TestCredentials;
	/** Credentials of other types the workflow's nodes use, by type name. */
	extraCredentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Name of the node to start from; default the workflow's manual trigger. */
	startNode?: string;
	/** What the start node (a trigger) produced; n8n starts active workflows this way. */
	triggerItems?: IDataObject[];
	urls?: Partial<TestUrls>;
}

export interface WorkflowRun {
	run: IRun;
	workflow: Workflow;
	/** Items a node output in its last run (first output). */
	output(nodeName: string): IDataObject[];
	/** The run's error message, if it ended with one. */
	error?: string;
}

export function toWorkflow(
	file: WorkflowFile,
	id = randomUUID(),
): { workflow: Workflow; data: IWorkflowBase } {
	// Runs change node objects (a waiting node gets disabled): work on a copy of the file's nodes.
	const nodes = JSON.parse(JSON.stringify(file.nodes)) as INode[];
	const data: IWorkflowBase = {
		id,
		name: file.name,
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: file.connections,
		settings: file.settings ?? {},
		activeVersionId: null,
	};
	const workflow = new Workflow({
		id,
		name: file.name,
		nodes,
		connections: file.connections,
		active: false,
		nodeTypes: workflowNodeTypes,
		settings: file.settings ?? {},
	});
	return { workflow, data };
}

export async function runWorkflow(options: RunWorkflowOptions): Promise<WorkflowRun> {
	const { workflow, data } = toWorkflow(options.file);
	const start = options.startNode
		? workflow.getNode(options.startNode)
		: Object.values(workflow.nodes).find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!start)
		throw new Error(
			`no start node ${options.startNode ?? '(manual trigger)'} in "${options.file.name}"`,
		);
	const credentialsHelper = new TestCredentialsHelper({
		...options.extraCredentials,
		workspacePracticeApi: { ...options.credentials },
	});
	const executionId = randomUUID();
	const additionalData = makeAdditionalData(credentialsHelper, data, executionId, options.urls);
	const mode: WorkflowExecuteMode = options.triggerItems ? 'trigger' : 'manual';
	const triggerToStartFrom = options.triggerItems
		? triggerStart(
				start.name,
				options.triggerItems.map((json): INodeExecutionData => ({ json })),
			)
		: undefined;
	const run = await new WorkflowExecute(additionalData, mode).run({
		workflow,
		startNode: start,
		triggerToStartFrom,
	});
	const output = (nodeName: string): IDataObject[] => {
		const runs = run.data.resultData.runData[nodeName] ?? [];
		return (runs[runs.length - 1]?.data?.main?.[0] ?? []).map((item) => item.json);
	};
	const error = run.data.resultData.error;
	return {
		run,
		workflow,
		output,
		error: error
			? `${error.message}${error.description ? `: ${error.description}` : ''}`
			: undefined,
	};
}
