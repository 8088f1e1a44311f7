/**
 * What the Job Trigger says in the editor (issue 41, point 8). n8n 2.41.1's listening view writes "Go to
 * <display name without Trigger> and create an event" for every webhook trigger but its own Chat and
 * Form triggers (editor-ui TriggerPanel: the service hint takes no text from the node), so the node's
 * own words go where n8n reads them: `triggerPanel` (the header before listening, the help beside it)
 * and the parameters' notice and tooltips.
 */
import type { TriggerPanelDefinition } from 'n8n-workflow';

import { WorkspacePracticeJobTrigger } from '../../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js';

const { description } = new WorkspacePracticeJobTrigger();

test('triggerPanel: its own header and help, naming the Test URL, the Callback URL and what a job takes', () => {
	const panel = description.triggerPanel as TriggerPanelDefinition;
	expect(panel.header).toMatch(/call back when a scenario job ends/);
	const help = panel.executionsHelp as { active: string; inactive: string };
	for (const text of [help.inactive, help.active]) {
		expect(text).toMatch(/Test URL/);
		expect(text).toMatch(/Production URL/);
		expect(text).not.toMatch(/create an event/i);
	}
	expect(help.inactive).toMatch(/about 5 minutes/);
});

test('eventTriggerDescription (what n8n shows while listening, instead of "Go to … and create an event") says what to send, and where', () => {
	expect(description.eventTriggerDescription).toMatch(/^Waiting for a job to call back/);
	expect(description.eventTriggerDescription).toMatch(/Test URL/);
	expect(description.eventTriggerDescription).toMatch(/"id"/);
	expect(description.eventTriggerDescription).not.toMatch(/create an event/i);
	expect(description.activationMessage).toMatch(/Production URL/);
});

test("Statuses' tooltip: the service promises a callback for completed jobs only, and what to do for the others", () => {
	const statuses = description.properties.find((p) => p.name === 'statuses');
	expect(statuses?.description).toMatch(/promises a callback for completed jobs only/);
	expect(statuses?.description).toMatch(/Scenario Job → Get|By Polling/);
});

test("Scenario Job → Create's By Polling notice opens with the wait, then what it costs", async () => {
	const { WorkspacePractice } = await import(
		'../../nodes/WorkspacePractice/WorkspacePractice.node.js'
	);
	const notice = new WorkspacePractice().description.properties.find(
		(p) => p.name === 'pollingNotice' && p.displayOptions?.show?.resource?.includes('scenarioJob'),
	);
	expect(notice?.displayName).toMatch(/^This step waits about five minutes for the scenario/);
	expect(notice?.displayName).toMatch(/costs about 10 API calls a job/);
	expect(notice?.displayOptions?.show?.waitForCompletion).toEqual(['poll']);
});
