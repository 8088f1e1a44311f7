import type {
	ICredentialDataDecryptedObject,
	Icon,
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
			placeholder: 'https://api.exec.com/rest/v1',
			description:
				"The API's base address, ending in /rest/v1: https://api.exec.com/rest/v1 for the hosted service (the servers entry of the service's API reference); a workspace on another address gets it from the workspace admin who makes its API keys. If the test says it could not reach the host, check the host and port, and that n8n's network can reach the service.",
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

	// The test is the nodes' `workspacePracticeApiTest` (testedBy, nodes/shared/methods/credentialTest.ts):
	// n8n's declarative test would show an unreachable host as a bare ECONNREFUSED or ENOTFOUND.

	/**
	 * Sends the key as a Bearer header, stripped of surrounding whitespace/quotes and a pasted "Bearer "
	 * prefix (same rule as nodes/shared/transport/apiKey.ts KEY_CLEANUP), so a sloppy paste still
	 * authenticates. A key of another form, or a Base URL not ending in /rest/v1, is refused here, before
	 * any request: n8n's credential test then shows the rule instead of the service's 401 or 404 (the
	 * nodes check the same first, nodes/shared/transport/apiKey.ts; a test keeps the two in step). A
	 * function rather than an expression: n8n evaluates an expression for every request (in an isolate
	 * under its default engine); this does the same work in plain code.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const key = String(credentials.apiKey ?? '').replace(
			/^[\s"']*(bearer\s+)?[\s"']*|[\s"']*$/gi,
			'',
		);
		if (!/^[a-z]+_live_[A-Za-z0-9]{40}$/.test(key)) {
			throw new Error(
				`API Key does not have the expected form (${key.length} characters after removing quotes, spaces and "Bearer "): expected a lowercase word, "_live_" and 40 letters or digits, as Settings > API shows it (for example svc_live_…). No request was sent.`,
			);
		}
		const baseUrl = String(credentials.baseUrl ?? '')
			.trim()
			.replace(/\/+$/, '');
		if (!/^https?:\/\/[^/]+.*\/rest\/v1$/.test(baseUrl)) {
			throw new Error(
				`Base URL must be the full base address ending in /rest/v1 (for example https://api.exec.com/rest/v1), got "${baseUrl}". No request was sent.`,
			);
		}
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${key}` },
		};
	}
}
