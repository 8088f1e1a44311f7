/**
 * Issue 49: a Callback URL on n8n's test path (`/webhook-test/`, the Job Trigger's Test URL) reaches
 * the trigger only while it listens for a test event; otherwise the service's callback gets n8n's 404
 * and nothing starts. The form shows a notice on Scenario Job → Create and the item carries `notice`,
 * both saying what to do (listen first, or publish and use the Production URL).
 */
import type { INodeProperties } from 'n8n-workflow';

import type { RunningSimulator } from '../../simulator';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { bootJobSim, createParams, runJobNode } from './jobTestKit';

const TEST_URL =
	'https://n8n.example.com/webhook-test/5f1c0e2a-7b3d-4c8e-9a6f-1d2e3f4a5b6c/workspace-practice-job';
const PRODUCTION_URL = TEST_URL.replace('/webhook-test/', '/webhook/');
const SAYS_WHAT_TO_DO =
	/Test URL \(\/webhook-test\/\).*Listen.*publish the workflow and use the Job Trigger's Production URL/;

let sim: RunningSimulator;
beforeEach(async () => {
	({ sim } = await bootJobSim());
});
afterEach(async () => await sim.close());

// The form says it on the Callback URL field itself: a notice shown by the collection's value fails
// to activate in n8n 1.123 ("Could not resolve parameter dependencies"), so the form has none.
describe('the form', () => {
	test('the Callback URL field says what a Test URL does and what to use instead', () => {
		const additional = new WorkspacePractice().description.properties.find(
			(p) =>
				p.name === 'additionalFields' &&
				p.displayOptions?.show?.resource?.includes('scenarioJob') &&
				p.displayOptions?.show?.operation?.includes('create'),
		) as INodeProperties;
		const field = (additional.options as INodeProperties[]).find((o) => o.name === 'callbackUrl');
		expect(field?.description).toMatch(/Test URL \(\/webhook-test\/\).*listens.*404/);
		expect(field?.description).toMatch(/Production URL.*\/webhook\//);
	});
	test('no field of the form is shown by a value inside a collection (n8n 1.x cannot resolve it)', () => {
		for (const p of new WorkspacePractice().description.properties)
			for (const key of Object.keys({ ...p.displayOptions?.show, ...p.displayOptions?.hide }))
				expect(`${p.name}: ${key}`).not.toMatch(/: [^@/][^.]*\./);
	});
});

describe('the output', () => {
	test('a job created with a Test URL carries a notice saying what to do', async () => {
		const { items, error } = await runJobNode(sim, {
			parameters: createParams(sim, {
				waitForCompletion: 'off',
				additionalFields: { callbackUrl: TEST_URL },
			}),
		});
		expect(error).toBeUndefined();
		expect(String(items[0].json.notice)).toMatch(SAYS_WHAT_TO_DO);
		expect(items[0].json.status).toBe('queued');
	});

	test('with a Production URL the item has no notice', async () => {
		const { items, error } = await runJobNode(sim, {
			parameters: createParams(sim, {
				waitForCompletion: 'off',
				additionalFields: { callbackUrl: PRODUCTION_URL },
			}),
		});
		expect(error).toBeUndefined();
		expect(items[0].json.notice).toBeUndefined();
	});
});
