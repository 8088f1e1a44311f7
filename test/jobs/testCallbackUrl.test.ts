/**
 * Issue 49: a Callback URL on n8n's test path (`/webhook-test/`, the Job Trigger's Test URL) reaches
 * the trigger only while it listens for a test event; otherwise the service's callback gets n8n's 404
 * and nothing starts. The form shows a notice on Scenario Job → Create and the item carries `notice`,
 * both saying what to do (listen first, or publish and use the Production URL).
 */
import type { INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

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

describe('the form', () => {
	const description = new WorkspacePractice().description;
	const notice = description.properties.find(
		(p) => p.name === 'testCallbackUrlNotice',
	) as INodeProperties;
	const shown = (callbackUrl: string): boolean =>
		NodeHelpers.displayParameter(
			{ resource: 'scenarioJob', operation: 'create', additionalFields: { callbackUrl } },
			notice,
			{ typeVersion: 1 },
			description,
		);

	test('shows the notice for a Test URL, not for a Production URL or none', () => {
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(SAYS_WHAT_TO_DO);
		expect(shown(TEST_URL)).toBe(true);
		expect(shown(PRODUCTION_URL)).toBe(false);
		expect(shown('')).toBe(false);
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
