import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IWorkflowBase,
} from 'n8n-workflow';
import { createRunExecutionData, type Workflow } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';
import { randomUUID } from 'node:crypto';

import { activeWorkflow } from './activeWorkflow';
import { makeAdditionalData } from './additionalData';
import { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes } from './nodeTypes';
import { invokeWebhook } from './webhookCall';
import type { WebhookServer } from './webhookServer';

const WORKFLOW_ID = 'trigger-workflow';

export interface TriggerEndpointOptions {
	nodeType: string;
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** The node's version in the workflow; by default the one n8n gives a newly added node. */
	typeVersion?: number;
}

/**
 * An active workflow whose only node is a webhook trigger, served at /webhook/<path> on the test's
 * WebhookServer as n8n serves production webhooks: the node's webhook() runs through WebhookContext;
 * when it returns workflowData a new execution starts from the trigger with that data. As in n8n, each
 * delivery gets its own Workflow with a copy of the saved static data, saved back when the trigger
 * changed it: deliveries handled at the same time do not see each other's changes.
 */
export class TriggerEndpoint {
	readonly started: IRun[] = [];
	readonly node: INode;
	/** The static data as last saved (n8n keeps it in its database). */
	private savedStaticData: IDataObject = {};
	private readonly credentialsHelper: TestCredentialsHelper;
	private readonly workflowData: IWorkflowBase;

	constructor(
		private readonly server: WebhookServer,
		options: TriggerEndpointOptions,
	) {
		const type = nodeTypes.getByNameAndVersion(options.nodeType).description;
		const versions = Array.isArray(type.version) ? type.version : [type.version];
		this.node = {
			id: randomUUID(),
			name: 'Job Trigger',
			type: options.nodeType,
			typeVersion: options.typeVersion ?? type.defaultVersion ?? Math.max(...versions),
			position: [0, 0],
			parameters: options.parameters,
			webhookId: randomUUID(),
			credentials: Object.fromEntries(
				Object.keys(options.credentials).map((type) => [type, { id: type, name: type }]),
			),
		};
		this.workflowData = activeWorkflow(WORKFLOW_ID, this.node).workflowData;
		this.credentialsHelper = new TestCredentialsHelper(options.credentials);
		const description = type.webhooks?.[0];
		if (!description) throw new Error(`${options.nodeType} has no webhook`);
		const path = String(description.path);
		server.route(new RegExp(`^/webhook/${path}$`), async (request) => {
			const executionId = randomUUID();
			const additionalData = makeAdditionalData(
				this.credentialsHelper,
				this.workflowData,
				executionId,
			);
			const { workflow } = activeWorkflow(
				WORKFLOW_ID,
				this.node,
				structuredClone(this.savedStaticData),
			);
			const { answer, result } = await invokeWebhook({
				workflow,
				node: this.node,
				additionalData,
				mode: 'webhook',
				description,
				request,
			});
			if (workflow.staticData.__dataChanged === true) {
				// A plain copy (static data is a watching proxy), without n8n's change flag.
				const saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
				delete saved.__dataChanged;
				this.savedStaticData = saved;
			}
			if (result.workflowData) await this.start(workflow, executionId, result.workflowData);
			return answer;
		});
	}

	get url(): string {
		return `${this.server.baseUrl}/webhook/workspace-practice-job`;
	}

	private async start(
		workflow: Workflow,
		executionId: string,
		data: INodeExecutionData[][],
	): Promise<void> {
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: this.node, data: { main: data }, source: null }],
			},
		});
		const additionalData = makeAdditionalData(
			this.credentialsHelper,
			this.workflowData,
			executionId,
		);
		const run = await new WorkflowExecute(
			additionalData,
			'webhook',
			runExecutionData,
		).processRunExecutionData(workflow);
		this.started.push(run);
	}

	/** The trigger's output items of each started execution. */
	outputs(): INodeExecutionData[][] {
		return this.started.map(
			(run) => run.data.resultData.runData[this.node.name]?.[0]?.data?.main?.[0] ?? [],
		);
	}
}
