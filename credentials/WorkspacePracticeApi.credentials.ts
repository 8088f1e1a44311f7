import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export class WorkspacePracticeApi implements ICredentialType {
	name = 'workspacePracticeApi';

	displayName = 'Workspace Practice API';

	icon: Icon = {
		light: 'file:../nodes/WorkspacePractice/workspacePractice.svg',
		dark: 'file:../nodes/WorkspacePractice/workspacePractice.dark.svg',
	};

	documentationUrl =
		'https://github.com/workspace-practice/n8n-nodes-workspace-practice/blob/main/docs/credentials/workspace-practice-api.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com/rest/v1',
			description:
				'The full base address of the API, ending in /rest/v1 (a trailing slash is fine)',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Created by a workspace admin under Settings > API. Form: a lowercase word, "_live_" and 40 letters or digits (for example svc_live_…). Quotes, spaces and a "Bearer " prefix are removed.',
		},
	];

	/**
	 * Sends the key as a Bearer header, stripped of surrounding whitespace/quotes and a pasted "Bearer "
	 * prefix (same rule as nodes/shared/transport/apiKey.ts KEY_CLEANUP), so a sloppy paste still
	 * authenticates. A function rather than an expression: n8n evaluates an expression for every
	 * request (in an isolate under its default engine); this does the same work in plain code.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const key = String(credentials.apiKey).replace(/^[\s"']*(bearer\s+)?[\s"']*|[\s"']*$/gi, '');
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${key}` },
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "") }}',
			url: '/workspace',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key is invalid or inactive. Expected a lowercase word, "_live_" and 40 letters or digits (for example svc_live_…).',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'Nothing answers at this Base URL: it must be the full base ending in /rest/v1.',
				},
			},
		],
	};
}
