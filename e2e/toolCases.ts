/**
 * Every operation of the action node as an AI tool: the end-to-end case of e2e/cases.ts (its form
 * values, its expected request, its check of the items), with the inputs a model supplies turned into
 * $fromAI() parameters. The arguments a client passes are the case's own values, so the same check
 * applies to what the tool returned. The suite fails for an operation without an entry here.
 */
import { CASES, type CaseContext } from './cases';
import { fromAI, type FromAiType, type ToolSpec } from '../scripts/n8n/aiWorkflows';
import type { Params } from '../scripts/n8n/workflows';

/** A parameter the model fills: its path in the form values, the $fromAI key, description and type. */
type ModelInput = [path: string, key: string, description: string, type?: FromAiType];

const SCENARIO: ModelInput = ['scenario', 'scenario', 'ID of the scenario, or the URL of its page'];
const MEMBER: ModelInput = ['userEmail', 'user_email', 'E-mail address of the workspace member'];

export const MODEL_INPUTS: Record<string, ModelInput[]> = {
	'workspace:get': [],
	'member:getAll': [],
	'group:getAll': [],
	'collection:getAll': [],
	'context:getAll': [],
	'assignment:getAll': [],
	'scenario:getAll': [],
	'scenario:checkAccess': [SCENARIO, MEMBER],
	'scenario:grantAccess': [SCENARIO, MEMBER],
	'scenario:assign': [
		SCENARIO,
		MEMBER,
		['dueDate', 'due_date', 'Date by which the member should practice, ISO 8601 (e.g. 2030-01-31)'],
	],
	'scenario:getAnalyticsSummary': [SCENARIO],
	'scenario:getParticipantAnalytics': [SCENARIO],
	'session:getAll': [],
	'session:get': [['session', 'session_id', 'ID of the roleplay session']],
	'skill:getAll': [],
	'skill:getProficiency': [['skill', 'skill_id', 'ID of the skill']],
	'skill:getTierChanges': [
		['fromDate', 'from_date', 'The earlier date to compare, ISO 8601'],
		['toDate', 'to_date', 'The later date to compare, ISO 8601'],
	],
	'knowledgeHubFolder:getAll': [],
	'knowledgeHubFolder:get': [['folderId', 'folder_id', 'ID of the Knowledge Hub folder']],
	'knowledgeHubPage:getAll': [],
	'knowledgeHubPage:get': [['pageId', 'page_id', 'ID of the Knowledge Hub page']],
	'knowledgeHubPage:getVersions': [['pageId', 'page_id', 'ID of the Knowledge Hub page']],
	'knowledgeHubPage:create': [
		['title', 'title', 'Title of the new page'],
		['additionalFields.content', 'content', 'Content of the page in Markdown'],
	],
	'knowledgeHubPage:createOrUpdate': [
		['title', 'title', 'Exact title of the page to create or update'],
		['content', 'content', 'The Markdown content the page should have'],
	],
	'knowledgeHubPage:update': [
		['pageId', 'page_id', 'ID of the Knowledge Hub page to change'],
		['updateFields.content', 'content', 'New content of the page in Markdown'],
	],
	'knowledgeHubPage:archive': [['pageId', 'page_id', 'ID of the Knowledge Hub page to archive']],
	'knowledgeHubSource:getAll': [],
	'knowledgeHubSource:get': [['sourceId', 'source_id', 'ID of the Knowledge Hub source']],
	'knowledgeHubSource:createFromUrl': [
		['url', 'url', 'Address of the web page to add'],
		['title', 'title', 'Title to give the source'],
	],
	'knowledgeHubSource:archive': [
		['sourceId', 'source_id', 'ID of the Knowledge Hub source to archive'],
	],
	'studioSession:create': [
		MEMBER,
		['prompt', 'prompt', 'What the scenario to build in the studio is about'],
	],
	'scenarioJob:create': [
		MEMBER,
		[
			'prompt',
			'prompt',
			'What the practice scenario is about: the situation, the other party and the goal',
		],
	],
	'scenarioJob:get': [['jobId', 'job_id', 'ID of the scenario job']],
	'scenarioJob:cancel': [['jobId', 'job_id', 'ID of the scenario job to cancel']],
};

export interface ToolCase {
	key: string;
	tool: ToolSpec;
	/** What a client passes: the case's own values. */
	args: Record<string, unknown>;
}

const isLocator = (value: unknown): value is { __rl: true; value: unknown } =>
	typeof value === 'object' && value !== null && (value as { __rl?: unknown }).__rl === true;

/** The case's form values with each model input replaced by $fromAI(); the replaced values become the arguments. */
export async function toolCase(key: string, name: string, ctx: CaseContext): Promise<ToolCase> {
	const testCase = CASES[key];
	const inputs = MODEL_INPUTS[key];
	if (!testCase || !inputs)
		throw new Error(`no tool case for "${key}": add it to e2e/cases.ts and e2e/toolCases.ts`);
	const parameters = structuredClone(await testCase.params(ctx)) as Params;
	const args: Record<string, unknown> = {};
	for (const [path, argKey, description, type] of inputs) {
		const parts = path.split('.');
		const last = parts.pop() as string;
		let holder = parameters;
		for (const part of parts) holder = holder[part] as Params;
		const current = holder[last];
		if (current === undefined) throw new Error(`${key}: the case sets no "${path}"`);
		if (isLocator(current)) {
			args[argKey] = current.value;
			holder[last] = { ...current, value: fromAI(argKey, description, type) };
		} else {
			args[argKey] = current;
			holder[last] = fromAI(argKey, description, type);
		}
	}
	return { key, tool: { name, parameters }, args };
}
