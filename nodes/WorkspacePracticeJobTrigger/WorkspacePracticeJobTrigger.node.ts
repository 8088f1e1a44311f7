import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IExecuteFunctions,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';

import { refuseUnofferedValues } from '../shared/fields/offered';
import { credentialTest } from '../shared/methods/credentialTest';
import { JOB_TRIGGER_PATH, jobFromBody } from '../shared/scenarioJob/callback';
import { isFinal, readJob } from '../shared/scenarioJob/job';
import { headerValue, secretsMatch } from '../shared/secret';
import { multiOptionSubtitle } from '../shared/subtitle';
import { answer } from '../shared/webhook';
import {
	dedupeKey,
	DEFAULT_STATUSES,
	DEFAULT_WINDOW_MINUTES,
	isRepeat,
	recordStarted,
	windowMs,
	type DedupeState,
} from './dedupe';

const SECRET_CREDENTIAL = 'workspacePracticeWebhookSecretApi';

/** One trigger in one workflow: where its deliveries are remembered in this process. */
function triggerScope(ctx: IWebhookFunctions | IExecuteFunctions): string {
	const node = ctx.getNode();
	return `${String(ctx.getWorkflow().id)}:${node.id ?? node.name}`;
}

/** The service cannot register webhooks: the user puts this URL in a job's callback_url. */
const jobWebhooks: IWebhookDescription[] = [
	{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: JOB_TRIGGER_PATH },
];

/** The final statuses the trigger offers, by their names in the form and on the canvas. */
const STATUS_NAMES: Record<string, string> = {
	cancelled: 'Cancelled',
	completed: 'Completed',
	failed: 'Failed',
};

/** The form: also what `webhook` checks every delivery's settings against. */
const jobTriggerProperties: INodeProperties[] = [
	{
		displayName:
			'Put this node\'s Production URL in Scenario Job → Create → Additional Fields → Callback URL: the service calls it when the job ends, and the call starts this workflow once it is published (activated in n8n 1.x). To test, click "Execute step" (or "Test this trigger" in the output panel) and send a job\'s callback to the Test URL (see the panel above).',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'None', value: 'none', description: 'Accept every delivery' },
			{
				name: 'Header Secret',
				value: 'headerSecret',
				description:
					'Refuse (401) deliveries without the secret header set in Create → Callback Headers',
			},
		],
		default: 'none',
		description: 'Whether deliveries must carry a shared secret in a header',
	},
	{
		displayName: 'Confirm With API',
		name: 'confirmWithApi',
		type: 'boolean',
		default: true,
		description:
			'Whether to read the job from the API (one call) and output that instead of the request body, so a forged delivery cannot inject data',
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: Object.entries(STATUS_NAMES).map(([value, name]) => ({ name, value })),
		default: [...DEFAULT_STATUSES],
		description:
			'Final job statuses that start the workflow; other deliveries are acknowledged and ignored. The service promises a callback for completed jobs only: a failed or cancelled job may never call, so read those with Scenario Job → Get, or wait By Polling.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Duplicate Window (Minutes)',
				name: 'duplicateWindowMinutes',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_WINDOW_MINUTES,
				description:
					'Repeated deliveries of the same job and status within this time start one execution only. 0 turns the check off.',
			},
		],
	},
];

export class WorkspacePracticeJobTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Workspace Practice Job Trigger',
		name: 'workspacePracticeJobTrigger',
		icon: {
			light: 'file:workspacePracticeJobTrigger.svg',
			dark: 'file:workspacePracticeJobTrigger.dark.svg',
		},
		group: ['trigger'],
		// Version 2 (the only one): n8n parses a version-2 start node's bodies without evaluating an expression.
		version: 2,
		subtitle: multiOptionSubtitle('statuses', STATUS_NAMES, 'Job: '),
		description: 'Starts the workflow when a scenario job ends and the service calls back',
		defaults: { name: 'Workspace Practice Job Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// n8n's own words otherwise: "Go to Workspace Practice Job and create an event" (no such place).
		eventTriggerDescription:
			'Waiting for a job to call back: POST {"id": "<job ID>"} of an ended job to the Test URL, or create a job with the Test URL as its Callback URL',
		activationMessage:
			"Jobs whose Callback URL is this node's Production URL now start this workflow when they end.",
		triggerPanel: {
			header: 'Waits for the service to call back when a scenario job ends',
			executionsHelp: {
				inactive:
					'The service calls a job\'s Callback URL when the job ends; that call starts this workflow.<br /><br /><b>To test while you build</b>, click <b>Execute step</b> above, or <b>Test this trigger</b> in the output panel (n8n listens for 2 minutes), then send a callback to this node\'s <b>Test URL</b>: either create a job whose Callback URL is the Test URL and listen shortly before it ends (a job takes about 5 minutes), or POST an ended job\'s ID yourself, e.g. <code>{"id": "&lt;job ID&gt;"}</code> (with the secret header if one is set). The execution shows up in the editor.<br /><br /><b>To run it for real</b>, publish the workflow (activate it in n8n 1.x) and put the <b>Production URL</b> in Scenario Job → Create → Additional Fields → Callback URL. Those executions show up in the executions list, not in the editor.',
				active:
					'The service calls a job\'s Callback URL when the job ends; that call starts this workflow.<br /><br />The workflow is published (active in n8n 1.x): jobs whose Callback URL is this node\'s <b>Production URL</b> start it, and their executions show up in the <a data-key="executions">executions list</a>, not in the editor.<br /><br /><b>To test</b>, click <b>Execute step</b> (or <b>Test this trigger</b>) and send a callback to the <b>Test URL</b>, e.g. POST <code>{"id": "&lt;job ID&gt;"}</code> of an ended job.',
			},
			activationHint:
				"Once the workflow is ready, publish it (activate it in n8n 1.x) and put this node's Production URL in each job's Callback URL: jobs then start it without this button.",
		},
		credentials: [
			{
				name: 'workspacePracticeApi',
				required: true,
				testedBy: 'workspacePracticeApiTest',
				displayOptions: { show: { confirmWithApi: [true] } },
			},
			{
				name: 'workspacePracticeWebhookSecretApi',
				required: true,
				testedBy: 'checkWebhookSecret',
				displayOptions: { show: { authentication: ['headerSecret'] } },
			},
		],
		webhooks: jobWebhooks,
		properties: jobTriggerProperties,
	};

	methods = {
		credentialTest: {
			...credentialTest,
			/** Nothing to call: the secret is checked locally for a usable header name and enough length. */
			async checkWebhookSecret(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const name = String(credential.data?.headerName ?? '').trim();
				const secret = String(credential.data?.secret ?? '');
				if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name))
					return { status: 'Error', message: `"${name}" is not a valid HTTP header name` };
				if (secret.length < 16)
					return { status: 'Error', message: 'Use a secret of at least 16 characters' };
				return { status: 'OK', message: 'The header name and secret are usable' };
			},
		},
	};

	/** Passes the job on and records it in static data: n8n 2.x keeps only the execution's write. */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const window = items.length
			? windowMs(this.getNodeParameter('options', 0, {}) as IDataObject)
			: 0;
		if (window > 0) {
			const state = this.getWorkflowStaticData('node') as DedupeState;
			const keys = items.map((item) => dedupeKey(item.json));
			recordStarted(state, triggerScope(this), keys, Date.now(), window);
		}
		return [items];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		try {
			refuseUnofferedValues(this.getNode(), jobTriggerProperties, (name) =>
				this.getNodeParameter(name, null),
			);
		} catch (error) {
			// A setting the form does not offer: the delivery is refused with what to fix, nothing read.
			return answer(this, 500, { error: error instanceof Error ? error.message : String(error) });
		}
		if (this.getNodeParameter('authentication', 'none') === 'headerSecret') {
			const credentials = await this.getCredentials(SECRET_CREDENTIAL);
			const given = headerValue(
				this.getHeaderData() as Record<string, unknown>,
				String(credentials.headerName ?? ''),
			);
			if (!secretsMatch(given, String(credentials.secret ?? '')))
				return answer(this, 401, { error: 'The webhook secret is missing or wrong' });
		}

		const claimed = jobFromBody(this.getBodyData());
		if (claimed === undefined)
			return answer(this, 400, { error: 'Expected a JSON body naming a job ID' });

		let job: IDataObject = claimed;
		if (this.getNodeParameter('confirmWithApi', true) as boolean) {
			try {
				job = await readJob(this, String(claimed.id));
			} catch (error) {
				const status = error instanceof NodeApiError && error.httpCode === '404' ? 404 : 502;
				return answer(this, status, {
					error: `Could not confirm job ${String(claimed.id)} with the API`,
				});
			}
		}

		const statuses = this.getNodeParameter('statuses', DEFAULT_STATUSES) as string[];
		if (!isFinal(job.status) || !statuses.includes(job.status)) {
			return answer(this, 200, {
				received: true,
				started: false,
				reason: `status ${String(job.status)} is not watched`,
			});
		}

		const window = windowMs(this.getNodeParameter('options', {}) as IDataObject);
		if (window > 0) {
			const state = this.getWorkflowStaticData('node') as DedupeState;
			if (isRepeat(state, triggerScope(this), dedupeKey(job), Date.now(), window))
				return answer(this, 200, { received: true, started: false, reason: 'duplicate delivery' });
		}

		return {
			webhookResponse: { received: true, started: true },
			workflowData: [this.helpers.returnJsonArray(job)],
		};
	}
}
