import type {
	INodeExecutionData,
	IRun,
	IRunExecutionData,
	IWorkflowBase,
	Workflow,
} from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';

import { makeAdditionalData } from './additionalData';
import type { TestUrls } from './additionalData';
import type { TestCredentialsHelper } from './credentialsHelper';
import { invokeWebhook } from './webhookCall';
import type { WebhookAnswer, WebhookRequestInput } from './webhookCall';
import type { WebhookServer } from './webhookServer';
import { NODE_NAME } from './runNode';
import type { RunNodeResult } from './runNode';

/** One execution that a node put to wait, as n8n would have stored it. */
interface Waiting {
	workflow: Workflow;
	credentialsHelper: TestCredentialsHelper;
	runExecutionData: IRunExecutionData;
	/** Resolves with the finished run once the execution resumed and ended. */
	resumed: Promise<IRun>;
	resolve: (run: IRun) => void;
	state: 'waiting' | 'running' | 'finished';
}

function workflowDataOf(workflow: Workflow): IWorkflowBase {
	return {
		id: String(workflow.id),
		name: workflow.name ?? 'Engine test',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: Object.values(workflow.nodes),
		connections: workflow.connectionsBySourceNode,
		settings: {},
		activeVersionId: null,
	};
}

/**
 * n8n's waiting-webhook endpoint: executions put to wait are kept here (their runExecutionData, as n8n
 * stores it); a POST to /webhook-waiting/<executionId> runs the waiting node's webhook() through
 * WebhookContext with that data and, when it returns workflowData, resumes the execution the way n8n
 * does: that data becomes the waiting node's input, and WorkflowExecute continues the stored
 * runExecutionData (the waiting node, now disabled, passes it on). The time limit resumes it likewise
 * without a webhook.
 */
export class WaitingExecutions {
	private readonly executions = new Map<string, Waiting>();

	constructor(private readonly server: WebhookServer) {
		server.route(
			/^\/webhook-waiting\/([^/]+)$/,
			async (request, [executionId]) => await this.deliver(executionId, request),
		);
	}

	urls(): Partial<TestUrls> {
		return { webhookWaitingBaseUrl: `${this.server.baseUrl}/webhook-waiting` };
	}

	/** Keeps a run that ended waiting; returns the promise of its resumed run. */
	hold(executionId: string, result: RunNodeResult): Promise<IRun> {
		if (!result.run.waitTill)
			throw new Error(`execution ${executionId} is not waiting (status ${result.run.status})`);
		let resolve!: (run: IRun) => void;
		const resumed = new Promise<IRun>((r) => (resolve = r));
		this.executions.set(executionId, {
			workflow: result.workflow,
			credentialsHelper: result.credentialsHelper,
			runExecutionData: result.run.data,
			resumed,
			resolve,
			state: 'waiting',
		});
		return resumed;
	}

	private additionalData(executionId: string, waiting: Waiting) {
		return makeAdditionalData(
			waiting.credentialsHelper,
			workflowDataOf(waiting.workflow),
			executionId,
			this.urls(),
		);
	}

	private async deliver(executionId: string, request: WebhookRequestInput): Promise<WebhookAnswer> {
		const waiting = this.executions.get(executionId);
		if (!waiting)
			return { status: 404, body: { message: `The execution "${executionId}" does not exist.` } };
		if (waiting.state !== 'waiting')
			return { status: 409, body: { message: `The execution "${executionId}" is not waiting.` } };
		const nodeName = waiting.runExecutionData.resultData.lastNodeExecuted ?? NODE_NAME;
		const node = waiting.workflow.getNode(nodeName);
		if (!node) throw new Error(`no node ${nodeName}`);
		const nodeType = waiting.workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const description = nodeType.description.webhooks?.find(
			(w) => w.restartWebhook === true && w.httpMethod === request.method,
		);
		if (!description)
			return { status: 404, body: { message: 'no waiting webhook with a matching method' } };
		const { answer, result } = await invokeWebhook({
			workflow: waiting.workflow,
			node,
			additionalData: this.additionalData(executionId, waiting),
			mode: 'manual',
			description,
			request,
			runExecutionData: waiting.runExecutionData,
		});
		if (result.workflowData !== undefined) {
			waiting.state = 'running';
			void this.resume(executionId, waiting, result.workflowData);
		}
		return answer;
	}

	private async resume(
		executionId: string,
		waiting: Waiting,
		input?: INodeExecutionData[][],
	): Promise<void> {
		const data = waiting.runExecutionData;
		if (input !== undefined) data.executionData!.nodeExecutionStack[0].data.main = input;
		const run = await new WorkflowExecute(
			this.additionalData(executionId, waiting),
			'manual',
			data,
		).processRunExecutionData(waiting.workflow);
		waiting.state = 'finished';
		waiting.resolve(run);
	}

	/** The wait's time limit passed: n8n resumes without a webhook, the node's stored input unchanged. */
	async timeOut(executionId: string): Promise<IRun> {
		const waiting = this.executions.get(executionId);
		if (!waiting || waiting.state !== 'waiting')
			throw new Error(`execution ${executionId} is not waiting`);
		waiting.state = 'running';
		await this.resume(executionId, waiting);
		return await waiting.resumed;
	}
}

/** The items the node with this name output in its last run. */
export function outputOf(run: IRun, nodeName = NODE_NAME): INodeExecutionData[] {
	const runs = run.data.resultData.runData[nodeName] ?? [];
	return runs[runs.length - 1]?.data?.main?.[0] ?? [];
}
