import type { INodeProperties } from 'n8n-workflow';
import { SCENARIO_URL_REGEX } from '../scenario/scenario.locator';
import { pageLocator } from '../knowledgeHubPage/page.locator';
import { additionalFields, memberEmailField, notice, optionsField } from '../fields';

/** Longest prompt and context the service accepts (spec 4.1). */
export const PROMPT_MAX = 10_000;
export const CONTEXT_MAX = 50_000;
export const DEFAULT_TIME_LIMIT_MINUTES = 15;
/** A day: longer waits belong in the Job Trigger, which holds nothing open. */
export const MAX_TIME_LIMIT_MINUTES = 1440;
export const DEFAULT_FIRST_POLL_SECONDS = 5;

/** Context From: the Context text, or Knowledge Hub pages (read and checked in create.context.ts). */
const contextFields: INodeProperties[] = [
	{
		displayName: 'Context From',
		name: 'contextFrom',
		type: 'options',
		options: [
			{ name: 'Text', value: 'text', description: 'The Context under Additional Fields, or none' },
			{
				name: 'Knowledge Hub Pages',
				value: 'pages',
				description:
					'One or more pages read when the job is created (one API call each), each under its title; a Context under Additional Fields goes first',
			},
		],
		default: 'text',
		description: 'Where the background for the agent comes from',
	},
	{
		displayName: 'Context Pages',
		name: 'contextPages',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Page',
		default: {},
		displayOptions: { show: { contextFrom: ['pages'] } },
		description:
			'The pages, in this order. Together (titles included) at most 50,000 characters: checked before the job is created.',
		options: [
			{
				displayName: 'Page',
				name: 'page',
				values: [
					pageLocator({
						displayName: 'Page',
						name: 'page',
						description: 'A Knowledge Hub page: pick it from the list or give its UUID',
					}),
				],
			},
		],
	},
	{
		displayName: 'Page Body',
		name: 'contextPageBody',
		type: 'options',
		options: [
			{
				name: 'Published',
				value: 'published',
				description: 'The published version; a page never published is refused',
			},
			{
				name: 'Latest Draft',
				value: 'draft',
				description: 'Pending edits, or the published version when there are none',
			},
		],
		default: 'published',
		displayOptions: { show: { contextFrom: ['pages'] } },
		description: 'Which version of each page to use',
	},
];

export const createFields: INodeProperties[] = [
	memberEmailField('the scenario is created for (its owner),'),
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 5 },
		required: true,
		default: '',
		placeholder:
			'e.g. A discovery call with a skeptical IT director worried about integration effort',
		description:
			'Instructions for the AI agent: what scenario to create (or, when remixing, what to change). At most 10,000 characters.',
	},
	...contextFields,
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { '@tool': [false] } },
		options: [
			{
				name: 'Off',
				value: 'off',
				description: 'Output the job as created (status queued) and go on at once',
			},
			{
				name: 'Until Callback',
				value: 'callback',
				description:
					'Recommended when the service can reach this n8n: the execution pauses with no API calls until the service calls back, then reads the job once',
			},
			{
				name: 'By Polling',
				value: 'poll',
				description:
					'Works wherever n8n runs: reads the job status with growing pauses (5 s doubling up to 60 s) until it ends',
			},
		],
		default: 'poll',
		description:
			'Whether and how to wait for the finished scenario. A job usually takes about 5 minutes.',
	},
	{
		// The AI-tool variant: an agent must not be blocked for minutes, and n8n cannot pause a tool call.
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { '@tool': [true] } },
		options: [
			{
				name: 'Off',
				value: 'off',
				description:
					'Return the queued job at once; the agent reads it later with Scenario Job → Get (a job usually takes about 5 minutes)',
			},
			{
				name: 'By Polling',
				value: 'poll',
				description:
					'Hold the agent until the job ends (about 5 minutes, up to the Time Limit), then return the finished job',
			},
		],
		default: 'off',
		description:
			'Whether the tool waits for the finished scenario. Off returns the job with its ID and status queued; read it later with Scenario Job → Get.',
	},
	notice(
		'pollingNotice',
		"This step waits about five minutes for the scenario (at most the Time Limit), then outputs the finished scenario. It costs about 10 API calls a job (1 creation, about 9 status reads) of the workspace's 1,000 a day. A list's jobs are created first (the service allows 10 a minute) and waited on together: N items take about N/10 minutes plus one job.",
		{ waitForCompletion: ['poll'], '@tool': [false] },
	),
	notice(
		'callbackNotice',
		"Until Callback spends 2 API calls per job but waits for one item per execution: for a list use By Polling or the Workspace Practice Job Trigger. The service must reach this n8n's address. Not available when the node runs as an AI tool.",
		{ waitForCompletion: ['callback'] },
	),
	additionalFields([
		{
			displayName: 'Callback Headers',
			name: 'callbackHeaders',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Header',
			default: {},
			description:
				'Headers the service adds to its callback request, e.g. an Authorization header your receiver checks',
			options: [
				{
					displayName: 'Header',
					name: 'header',
					values: [
						{
							displayName: 'Name',
							name: 'name',
							type: 'string',
							default: '',
							placeholder: 'e.g. X-Webhook-Secret',
							description: 'Header name',
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							typeOptions: { password: true },
							default: '',
							description: 'Header value',
						},
					],
				},
			],
		},
		{
			displayName: 'Callback URL',
			name: 'callbackUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://n8n.example.com/webhook/workspace-practice-job',
			description:
				'Where the service POSTs when the job ends, e.g. the Production URL of a Workspace Practice Job Trigger (/webhook/…, the workflow published). Its Test URL (/webhook-test/) takes the callback only while the Job Trigger listens for a test event (Execute step): otherwise the callback gets a 404 and nothing starts. Not used with "Until Callback", which sets it to this execution.',
		},
		{
			displayName: 'Context',
			name: 'context',
			type: 'string',
			typeOptions: { rows: 5 },
			default: '',
			placeholder: 'e.g. ## Prospect\n- Company: TechCorp\n- Pain point: manual data entry',
			description:
				'Background for the agent in Markdown (CRM data, meeting notes, product facts). At most 50,000 characters. With Context From: Knowledge Hub Pages it goes before the pages.',
		},
		{
			displayName: 'Remix From Scenario',
			name: 'remixScenario',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description:
				'An existing scenario to start from; the prompt is then applied as changes to it (sent as its slug)',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: 'searchScenarioSlugs', searchable: true },
				},
				{
					displayName: 'By Slug',
					name: 'slug',
					type: 'string',
					placeholder: 'e.g. discovery-call-it-director',
					validation: [
						{
							type: 'regex',
							properties: {
								regex: '^[A-Za-z0-9][A-Za-z0-9_-]*$',
								errorMessage: 'A slug has letters, digits, - and _ only',
							},
						},
					],
				},
				{
					displayName: 'By URL',
					name: 'url',
					type: 'string',
					placeholder: 'e.g. https://acme.app.example.com/scenarios/discovery-call-it-director',
					extractValue: { type: 'regex', regex: SCENARIO_URL_REGEX },
					validation: [
						{
							type: 'regex',
							properties: {
								regex: SCENARIO_URL_REGEX,
								errorMessage: 'Not a scenario URL (…/scenarios/<slug>)',
							},
						},
					],
				},
			],
		},
	]),
	optionsField([
		{
			displayName: 'Cancel Job on Timeout',
			name: 'cancelOnTimeout',
			type: 'boolean',
			default: false,
			description:
				'Whether to cancel the job on the service when the time limit passes, before reporting the timeout',
			displayOptions: { show: { '/waitForCompletion': ['poll'] } },
		},
		{
			displayName: 'First Poll After (Seconds)',
			name: 'firstPollSeconds',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: DEFAULT_FIRST_POLL_SECONDS,
			description:
				'Pause before the first status read (0 reads at once); each later pause doubles, from at least 1 second up to 60 seconds. Larger values spend fewer API calls.',
			displayOptions: { show: { '/waitForCompletion': ['poll'] } },
		},
		{
			displayName: 'Request ID',
			name: 'requestIdMode',
			type: 'options',
			options: [
				{
					name: 'Derive From Execution and Item',
					value: 'derived',
					description:
						'Running this step again in the same execution returns the first job instead of creating another. As an AI tool: a new key for every call, so each call makes its own job.',
				},
				{
					name: 'Custom',
					value: 'custom',
					description: 'Your own idempotency key, e.g. a CRM record ID',
				},
				{ name: 'None', value: 'none', description: 'Every run creates a new job' },
			],
			default: 'derived',
			description:
				'Idempotency key sent as request_id. When a job with the same key exists, the service returns that job ("is_new" false) instead of creating a second one. A retry of a failed request within one run always sends the same key.',
		},
		{
			displayName: 'Request ID Value',
			name: 'requestId',
			type: 'string',
			default: '',
			placeholder: 'e.g. salesforce-opp-12345',
			description: 'The idempotency key to send; the same key always returns the same job',
			displayOptions: { show: { requestIdMode: ['custom'] } },
		},
		{
			displayName: 'Time Limit (Minutes)',
			name: 'timeLimitMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_TIME_LIMIT_MINUTES, numberPrecision: 0 },
			default: DEFAULT_TIME_LIMIT_MINUTES,
			description:
				'How long to wait for the job to end, in whole minutes. By Polling then fails with the job ID and its last status; Until Callback continues with an error item saying so.',
			displayOptions: { show: { '/waitForCompletion': ['callback', 'poll'] } },
		},
	]),
];
