import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { properties } from './actions/properties';
import { router } from './actions/router';
import { resumeOnCallback, resumeWebhooks } from './actions/scenarioJob/callback.webhook';
import { subtitle } from './actions/subtitle';
import { credentialTest } from '../shared/methods/credentialTest';
import { listSearch, loadOptions } from './methods';

export class WorkspacePractice implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Workspace Practice',
		name: 'workspacePractice',
		icon: { light: 'file:workspacePractice.svg', dark: 'file:workspacePractice.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle,
		description:
			'Create practice scenarios with the AI agent, grant access, read assignments, analytics and skills, and manage the Knowledge Hub',
		defaults: { name: 'Workspace Practice' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'workspacePracticeApi', required: true, testedBy: 'workspacePracticeApiTest' },
		],
		webhooks: resumeWebhooks,
		properties,
	};

	methods = { listSearch, loadOptions, credentialTest };

	execute = router;

	webhook = resumeOnCallback;
}
