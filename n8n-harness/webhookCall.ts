import type {
	IDataObject,
	INode,
	INodeType,
	IRunExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { WebhookContext } from 'n8n-core';

/** What the caller of a webhook got back. */
export interface WebhookAnswer {
	status: number;
	body: unknown;
}

/** The request fields n8n hands a node's webhook() (an express request in the server). */
export interface WebhookRequestInput {
	method: string;
	url: string;
	headers: Record<string, string | string[] | undefined>;
	query: Record<string, string>;
	body: unknown;
}

/** The slice of express's Response that nodes use: status(), json(), send(), end(), headers. */
export class TestResponse {
	statusCode = 200;
	body: unknown = undefined;
	headersSent = false;
	readonly headers: Record<string, string> = {};

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string): this {
		this.headers[name.toLowerCase()] = value;
		return this;
	}

	json(body: unknown): this {
		this.body = body;
		this.headersSent = true;
		return this;
	}

	send(body?: unknown): this {
		return this.json(body);
	}

	end(body?: unknown): this {
		if (body !== undefined) this.body = body;
		this.headersSent = true;
		return this;
	}
}

export interface InvokeWebhookOptions {
	workflow: Workflow;
	node: INode;
	additionalData: IWorkflowExecuteAdditionalData;
	mode: WorkflowExecuteMode;
	description: IWebhookDescription;
	request: WebhookRequestInput;
	/** The stored execution a waiting webhook belongs to; undefined for a trigger. */
	runExecutionData?: IRunExecutionData;
}

/**
 * Calls a node's webhook() through n8n-core's real WebhookContext, then answers the way n8n's
 * webhook helpers do: the node's own answer when it sent one (noWebhookResponse), otherwise the
 * description's response code with `webhookResponse` or n8n's "Workflow was started".
 */
export async function invokeWebhook(
	options: InvokeWebhookOptions,
): Promise<{ answer: WebhookAnswer; result: IWebhookResponseData }> {
	const { workflow, node, description, request } = options;
	const response = new TestResponse();
	const additionalData: IWorkflowExecuteAdditionalData = {
		...options.additionalData,
		// n8n puts the express request and response here for WebhookContext.
		httpRequest: request as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
		httpResponse: response as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
	};
	const webhookData: IWebhookData = {
		httpMethod: 'POST',
		node: node.name,
		path: String(description.path ?? ''),
		webhookDescription: description,
		workflowId: String(workflow.id),
		workflowExecuteAdditionalData: additionalData,
	};
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		options.mode,
		webhookData,
		[],
		options.runExecutionData ?? null,
	);
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
	if (!nodeType.webhook) throw new Error(`${node.type} has no webhook()`);
	const result = await nodeType.webhook.call(context);
	if (result.noWebhookResponse)
		return { answer: { status: response.statusCode, body: response.body }, result };
	const code = typeof description.responseCode === 'number' ? description.responseCode : 200;
	const body: IDataObject = (result.webhookResponse as IDataObject | undefined) ?? {
		message: 'Workflow was started',
	};
	return { answer: { status: code, body }, result };
}
