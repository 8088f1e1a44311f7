import { createHmac } from 'node:crypto';
import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { cleanApiKey } from './apiKey';
import { CREDENTIAL_TYPE } from './context';

/** The execution's secret, from the API key: the resumed webhook recomputes it, nothing stored. */
export async function callbackSecret(
	ctx: IExecuteFunctions | IWebhookFunctions,
	itemIndex?: number,
): Promise<string> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	return createHmac('sha256', cleanApiKey(credentials.apiKey))
		.update(`workspace-practice-callback:${ctx.getExecutionId()}:${ctx.getNode().id}`)
		.digest('hex');
}
