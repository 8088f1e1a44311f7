import { createHmac } from 'node:crypto';
import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { cleanApiKey } from './apiKey';
import { CREDENTIAL_TYPE } from './context';

/**
 * The secret for one execution of one node, derived with HMAC-SHA256 from the API key, which only
 * n8n and the service hold. Deriving it (rather than storing a random one) lets the resumed webhook
 * recompute it without keeping anything between the wait and the callback. It lives in the transport
 * because the transport is the one place that reads the credential.
 */
export async function callbackSecret(
	ctx: IExecuteFunctions | IWebhookFunctions,
	itemIndex?: number,
): Promise<string> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	return createHmac('sha256', cleanApiKey(credentials.apiKey))
		.update(`workspace-practice-callback:${ctx.getExecutionId()}:${ctx.getNode().id}`)
		.digest('hex');
}
