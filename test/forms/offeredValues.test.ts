/**
 * Issue 49: every options and multiOptions field of every node (the action node, its tool variant, the
 * trigger, the Job Trigger), at the top level or in a collection or fixedCollection, refuses a value
 * its form does not offer, naming the field as the form labels it and the values it takes, before any
 * request. The fields are walked from the built descriptions, so a new field is covered when it comes.
 */
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ManualClock, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { registry } from '../../n8n-harness/nodeTypes';
import { runNode } from '../../n8n-harness/runNode';
import { runToolCalls } from '../../n8n-harness/runTool';
import { PollHarness } from '../../n8n-harness/pollHarness';
import { TriggerEndpoint } from '../../n8n-harness/webhookTrigger';
import { WebhookServer } from '../../n8n-harness/webhookServer';

const NOT_OFFERED = 'not-offered-49';

/** One options field found in a form: where it sits and the parameters that show it with a bad value. */
interface Case {
	label: string;
	parameters: INodeParameters;
}

const isPicked = (field: INodeProperties): boolean =>
	(field.type === 'options' || field.type === 'multiOptions') &&
	!field.typeOptions?.loadOptionsMethod &&
	!field.typeOptions?.loadOptions;

const badValue = (field: INodeProperties): unknown =>
	field.type === 'multiOptions' ? [NOT_OFFERED] : NOT_OFFERED;

/** The first value each displayOptions.show key asks for: parameters under which the field is shown. */
function showing(field: INodeProperties): INodeParameters {
	const shown: INodeParameters = {};
	for (const [key, values] of Object.entries(field.displayOptions?.show ?? {})) {
		if (key.startsWith('@') || key.startsWith('/')) continue;
		const first = (values ?? [])[0];
		if (first === undefined || (typeof first === 'object' && first !== null)) continue;
		shown[key] = first as string;
	}
	return shown;
}

/** The value of a collection or fixedCollection holding `inner` for the child `child`. */
function cases(properties: INodeProperties[]): Case[] {
	const found: Case[] = [];
	for (const field of properties) {
		const base = showing(field);
		if (isPicked(field)) {
			// Resource and Operation pick the module: an unknown one is refused by the router itself.
			found.push({
				label: field.displayName,
				parameters: { ...base, [field.name]: badValue(field) as string },
			});
		} else if (field.type === 'collection') {
			for (const child of (field.options ?? []) as INodeProperties[])
				if (isPicked(child))
					found.push({
						label: `${field.displayName} → ${child.displayName}`,
						parameters: {
							...base,
							[field.name]: { ...showing(child), [child.name]: badValue(child) } as INodeParameters,
						},
					});
		} else if (field.type === 'fixedCollection') {
			for (const group of (field.options ?? []) as INodePropertyCollection[])
				for (const child of group.values)
					if (isPicked(child)) {
						const entry = { ...showing(child), [child.name]: badValue(child) } as INodeParameters;
						found.push({
							label: `${field.displayName} → ${group.displayName} → ${child.displayName}`,
							parameters: {
								...base,
								[field.name]: {
									[group.name]: field.typeOptions?.multipleValues ? [entry] : entry,
								} as INodeParameters,
							},
						});
					}
		}
	}
	return found;
}

const propertiesOf = (type: string): INodeProperties[] =>
	(registry[type] as INodeType).description.properties;

const firstValue = (field: INodeProperties): string =>
	String((field.options?.[0] as { value?: unknown } | undefined)?.value ?? '');

/** Required fields the form shows filled in, so n8n's own "is required" check lets the run start. */
function withRequired(properties: INodeProperties[], found: Case[]): Case[] {
	return found.map(({ label, parameters }) => {
		const filled: INodeParameters = { ...parameters };
		for (const field of properties) {
			if (!field.required || field.name in filled) continue;
			if (!NodeHelpers.displayParameter(filled, field, { typeVersion: 1 }, null)) continue;
			filled[field.name] = isPicked(field)
				? field.type === 'multiOptions'
					? [firstValue(field)]
					: firstValue(field)
				: field.type === 'resourceLocator'
					? { __rl: true, mode: 'id', value: '=x' }
					: field.type === 'number'
						? 1
						: '=x';
		}
		return { label, parameters: filled };
	});
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** "Label: "x" is not one of its values; it takes Name (value), …" */
const refusal = (label: string): RegExp =>
	new RegExp(`^${escape(label)}: "${NOT_OFFERED}" is not one of its values; it takes .+ \\(.+\\)`);

const ACTION = 'n8n-nodes-workspace-practice.workspacePractice';
const TRIGGER = 'n8n-nodes-workspace-practice.workspacePracticeTrigger';
const JOB_TRIGGER = 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger';

const actionCases = withRequired(propertiesOf(ACTION), cases(propertiesOf(ACTION))).filter(
	(c) => c.label !== 'Resource' && c.label !== 'Operation',
);
const triggerCases = withRequired(propertiesOf(TRIGGER), cases(propertiesOf(TRIGGER)));
const jobTriggerCases = cases(propertiesOf(JOB_TRIGGER));

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock() });
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

test('the walk finds the fields it is for', () => {
	const labels = actionCases.map((c) => c.label);
	expect(labels).toContain('Wait for Completion');
	expect(labels).toContain('Permission Level');
	expect(labels.length).toBeGreaterThan(25);
	expect(triggerCases.length).toBeGreaterThan(5);
	expect(jobTriggerCases.map((c) => c.label)).toContain('Statuses');
});

describe('the action node', () => {
	test.each(actionCases.map((c) => [c.label, c] as const))(
		'%s: an unoffered value is refused before any request',
		async (_label, { label, parameters }) => {
			const { error } = await runNode({
				parameters,
				credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			});
			expect(error?.message).toMatch(refusal(label));
			expect(sim.control.requests({})).toEqual([]);
		},
	);

	test('a value an expression gives is checked too', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'knowledgeHubPage',
				operation: 'getAll',
				filters: { status: '={{ "gone" }}' },
			},
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});
		expect(error?.message).toMatch(
			/^Filters → Status: "gone" is not one of its values; it takes .*\("published"\)/,
		);
		expect(sim.control.requests({})).toEqual([]);
	});
});

describe('the tool variant', () => {
	test.each(actionCases.map((c) => [c.label, c] as const))(
		'%s: an unoffered value from the model is refused before any request',
		async (_label, { label, parameters }) => {
			const { answers } = await runToolCalls({
				parameters,
				calls: [{}],
				credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			});
			expect(String(answers[0].error)).toMatch(refusal(label));
			expect(sim.control.requests({})).toEqual([]);
		},
	);
});

describe('the trigger', () => {
	test.each(triggerCases.map((c) => [c.label, c] as const))(
		'%s: an unoffered value is refused before any request',
		async (_label, { label, parameters }) => {
			const harness = new PollHarness({
				parameters,
				credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			});
			const outcome = await harness.poll();
			expect(outcome.error?.message).toMatch(refusal(label));
			expect(sim.control.requests({})).toEqual([]);
		},
	);
});

describe('a comma-separated list from an expression: read as offered.ts reads it, accepted by both', () => {
	// Issue 56: offered.ts passed "pageCreated,pageUpdated" and the family's own events check refused it.
	const poll = async (parameters: INodeParameters, write: () => void) => {
		const harness = new PollHarness({
			parameters,
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});
		const activation = await harness.poll();
		expect(activation.error).toBeUndefined();
		sim.control.advance(1000);
		write();
		const next = await harness.poll();
		expect(next.error).toBeUndefined();
		return next.items.map((item) => item.json.event);
	};

	test('Knowledge Hub Events', async () => {
		const events = await poll({ events: '={{ "pageCreated, pageUpdated" }}' }, () =>
			sim.control.createPage({ title: 'From a listed event' }),
		);
		expect(events).toEqual(['pageCreated']);
	});

	test('Practice Results Events', async () => {
		const parameters = {
			triggerOn: 'practice',
			practiceEvents: '={{ "sessionScored,assignmentCompleted" }}',
			practiceOptions: { maxReadsPerDay: 0 },
		};
		const events = await poll(parameters, () =>
			sim.control.addSession({
				userEmail: 'bob@acme.com',
				scenario: 'procurement-discovery',
				score: 80,
			}),
		);
		expect(events).toEqual(['sessionScored']);
	});
});

describe('the Job Trigger', () => {
	// One server a case: each serves the one trigger it was given at the Job Trigger's path.
	let server: WebhookServer;
	beforeEach(async () => {
		server = new WebhookServer();
		await server.start();
	});
	afterEach(async () => await server.close());

	test.each(jobTriggerCases.map((c) => [c.label, c] as const))(
		'%s: an unoffered value is answered with its refusal, no job read',
		async (_label, { label, parameters }) => {
			const trigger = new TriggerEndpoint(server, {
				nodeType: JOB_TRIGGER,
				parameters: { authentication: 'none', confirmWithApi: true, ...parameters },
				credentials: { workspacePracticeApi: { baseUrl: sim.baseUrl, apiKey: sim.apiKey } },
			});
			const response = await fetch(trigger.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ id: 'job-49', status: 'completed' }),
			});
			expect(response.status).toBe(500);
			expect(String(((await response.json()) as IDataObject).error)).toMatch(refusal(label));
			expect(sim.control.requests({})).toEqual([]);
		},
	);
});
