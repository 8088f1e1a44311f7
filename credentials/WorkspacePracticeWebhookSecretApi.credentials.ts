import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The shared secret a job callback must carry in a header: put the same name and value in Scenario
 * Job → Create's "Callback Headers", and the Job Trigger refuses deliveries without it.
 */
export class WorkspacePracticeWebhookSecretApi implements ICredentialType {
	name = 'workspacePracticeWebhookSecretApi';

	displayName = 'Workspace Practice Webhook Secret API';

	icon: Icon = {
		light: 'file:../nodes/WorkspacePractice/workspacePractice.svg',
		dark: 'file:../nodes/WorkspacePractice/workspacePractice.dark.svg',
	};

	documentationUrl =
		'https://github.com/workspace-practice/n8n-nodes-workspace-practice/blob/main/docs/credentials/workspace-practice-webhook-secret-api.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Header Name',
			name: 'headerName',
			type: 'string',
			default: 'X-Webhook-Secret',
			required: true,
			description: 'The header the callback carries the secret in (any case)',
		},
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"A long random value. Use the same value as the header's value in Scenario Job → Create → Callback Headers.",
		},
	];
}
