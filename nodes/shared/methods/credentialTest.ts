import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { checkApiKey, checkBaseUrl } from '../transport/apiKey';
import { foreignAnswer, networkWords, readErrorEnvelope } from '../transport/errors';

/**
 * The Workspace Practice API credential's test (each node names it with `testedBy`): n8n's
 * declarative test shows a host it cannot reach as a bare ECONNREFUSED or ENOTFOUND; this one says it
 * as the nodes do (transport/errors.ts), and checks the key and Base URL as the nodes do before any
 * request (transport/apiKey.ts).
 */
async function workspacePracticeApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const key = checkApiKey(credential.data?.apiKey);
	if ('problem' in key) return { status: 'Error', message: `${key.problem} No request was sent.` };
	const base = checkBaseUrl(credential.data?.baseUrl);
	if ('problem' in base)
		return { status: 'Error', message: `${base.problem} No request was sent.` };
	const { baseUrl } = base;
	// n8n gives a credential test `helpers.request` and no httpRequest (ICredentialTestFunctions, where it
	// is not deprecated); n8n's lint rule against the deprecated `this.helpers.request` of execute
	// functions matches the name alone.
	const { request } = this.helpers;
	try {
		await request({
			method: 'GET',
			uri: `${baseUrl}/workspace`,
			headers: { Authorization: `Bearer ${key.key}`, Accept: 'application/json' },
			json: true,
		});
		return { status: 'OK', message: 'Connection successful!' };
	} catch (error) {
		return { status: 'Error', message: testFailure(error, baseUrl) };
	}
}

/** What a failed GET /workspace means, in the nodes' words. */
function testFailure(error: unknown, baseUrl: string): string {
	const {
		statusCode,
		error: body,
		response,
	} = error as {
		statusCode?: number;
		error?: unknown;
		response?: { headers?: Record<string, unknown> };
	};
	if (typeof statusCode !== 'number') {
		const { message, description } = networkWords(new URL(baseUrl).host, error, {
			write: false,
			baseUrl,
		});
		return `${message}. ${description}`;
	}
	const foreign = foreignAnswer(statusCode, response?.headers ?? {}, body);
	if (statusCode === 401)
		return "The API key is well-formed but was not accepted by the service (revoked, or from another workspace). Ask a workspace admin for an active key from Settings > API, and check that the Base URL is this workspace's: n8n's own address (such as http://localhost:5678/rest/v1) answers 401 too.";
	if (foreign !== undefined || statusCode === 404)
		return `${foreign ? `The Base URL answered with ${foreign} (HTTP ${statusCode})` : 'Nothing answers at this Base URL (404)'}: check that it is the service's full base address ending in /rest/v1, as the workspace admin gave it, not n8n's own address (such as http://localhost:5678/rest/v1) or a web page's.`;
	const { message } = readErrorEnvelope(body);
	return `The service answered HTTP ${statusCode}${message ? `: ${message}` : ''}. ${statusCode >= 500 ? 'The service failed, not the credential: try again in a few minutes.' : 'Check the Base URL and the API key.'}`;
}

export const credentialTest = { workspacePracticeApiTest };
