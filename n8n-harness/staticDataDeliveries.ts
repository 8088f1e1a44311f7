import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IWorkflowBase,
} from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';
import { randomUUID } from 'node:crypto';

import { activeWorkflow } from './activeWorkflow';
import { makeAdditionalData } from './additionalData';
import { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes } from './nodeTypes';
import { invokeWebhook, type WebhookAnswer } from './webhookCall';

/** What n8n keeps in its database for one workflow: the static data, as last written. */
export interface StoredWorkflow {
	id: string;
	node: INode;
	/** null until the first write, as a new workflow's column is. */
	staticData: IDataObject | null;
}

/** A write of static data n8n has prepared and not yet done: the test decides when it lands. */
export interface PendingWrite {
	what: 'delivery' | 'execution';
	land(): void;
}

export interface DeliveryResult {
	answer: WebhookAnswer;
	started: boolean;
	/** The job IDs the started execution's trigger output holds. */
	output: string[];
}

/**
 * One n8n process taking production webhook deliveries for a one-node workflow, with n8n's own way
 * of keeping the trigger's static data (read in n8n 2.41.1's and 1.123.81's dist, docs/batching.md):
 * - each delivery reads the static data from the database and wraps it in a new Workflow;
 * - when the trigger starts an execution, n8n 2.x wraps the same object once more for the execution
 *   context (WorkflowRunner.establishContextForPersistence), which resets its "changed" flag, so
 *   that delivery's copy is not written; 1.x writes it;
 * - the execution reads the static data again when it is prepared and writes it when it ends if its
 *   nodes changed it;
 * - a write replaces the whole object: the last write wins.
 * Writes are not done at once but handed to `pending`, so a test can land them in any order.
 * A restart is a new instance (and fresh node modules) over the same StoredWorkflow.
 */
export class N8nDeliveries {
	readonly pending: PendingWrite[] = [];
	private readonly credentialsHelper: TestCredentialsHelper;
	private readonly workflowData: IWorkflowBase;

	constructor(
		readonly stored: StoredWorkflow,
		private readonly major: 1 | 2,
		credentials: Record<string, ICredentialDataDecryptedObject> = {},
	) {
		this.credentialsHelper = new TestCredentialsHelper(credentials);
		this.workflowData = activeWorkflow(stored.id, stored.node).workflowData;
	}

	/** A one-node workflow around `nodeType` as saved before any delivery. */
	static storedWorkflow(nodeType: string, parameters: INodeParameters): StoredWorkflow {
		const type = nodeTypes.getByNameAndVersion(nodeType).description;
		return {
			id: `wf-${randomUUID()}`,
			staticData: null,
			node: {
				id: randomUUID(),
				name: 'Job Trigger',
				type: nodeType,
				typeVersion: type.defaultVersion ?? 1,
				position: [0, 0],
				parameters,
				webhookId: randomUUID(),
			},
		};
	}

	/** Lands every pending write in the order given by `order` (indexes into `pending`), or as queued. */
	landAll(order?: number[]): void {
		const writes = order ? order.map((i) => this.pending[i]) : [...this.pending];
		this.pending.length = 0;
		for (const write of writes) write.land();
	}

	private read(): IDataObject | undefined {
		const { staticData } = this.stored;
		return staticData === null ? undefined : (structuredClone(staticData) as IDataObject);
	}

	/** n8n's saveStaticData: only when the copy says it changed; the whole object, flag left out. */
	private queueWrite(what: PendingWrite['what'], staticData: IDataObject): void {
		if (staticData.__dataChanged !== true) return;
		const snapshot = (): IDataObject => {
			const plain = JSON.parse(JSON.stringify(staticData)) as IDataObject;
			delete plain.__dataChanged;
			return plain;
		};
		// The database gets the object as it is when the write is done, not when it was queued.
		this.pending.push({ what, land: () => (this.stored.staticData = snapshot()) });
	}

	async deliver(body: IDataObject, headers: Record<string, string> = {}): Promise<DeliveryResult> {
		const description = nodeTypes.getByNameAndVersion(this.stored.node.type).description
			.webhooks?.[0];
		if (!description) throw new Error('the node has no webhook');
		const executionId = randomUUID();
		const additionalData = makeAdditionalData(
			this.credentialsHelper,
			this.workflowData,
			executionId,
		);
		const raw = this.read();
		const { workflow } = activeWorkflow(this.stored.id, this.stored.node, raw);
		const { answer, result } = await invokeWebhook({
			workflow,
			node: this.stored.node,
			additionalData,
			mode: 'webhook',
			description,
			request: {
				method: 'POST',
				url: `/webhook/${String(description.path)}`,
				headers: { 'content-type': 'application/json', ...headers },
				query: {},
				body,
			},
		});
		let output: string[] = [];
		if (result.workflowData) {
			// 2.x: the execution context is a new Workflow over the same object: the flag goes back to false.
			if (this.major === 2 && raw !== undefined)
				activeWorkflow(this.stored.id, this.stored.node, raw);
			output = await this.execute(executionId, result.workflowData);
		}
		this.queueWrite('delivery', workflow.staticData);
		return { answer, started: result.workflowData !== undefined, output };
	}

	/** The execution a delivery started: static data read when it is prepared, written when it ends. */
	private async execute(executionId: string, data: INodeExecutionData[][]): Promise<string[]> {
		const { workflow } = activeWorkflow(this.stored.id, this.stored.node, this.read());
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: this.stored.node, data: { main: data }, source: null }],
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
		this.queueWrite('execution', workflow.staticData);
		const items = run.data.resultData.runData[this.stored.node.name]?.[0]?.data?.main?.[0] ?? [];
		return items.map((item) => String(item.json.id));
	}
}
