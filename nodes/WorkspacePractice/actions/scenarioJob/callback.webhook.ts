import type {
	IDataObject,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { isSimplifyOn, simplifyRecord } from '../../../shared/output/simplified';
import { CALLBACK_SECRET_HEADER, jobFromBody } from '../../../shared/scenarioJob/callback';
import { failureMessage, isFinal, readJob } from '../../../shared/scenarioJob/job';
import { headerValue, secretsMatch } from '../../../shared/secret';
import { callbackSecret } from '../../../shared/transport';
import { answer } from '../../../shared/webhook';

/** n8n's resume webhook: nothing is registered, the URL travels as each job's callback_url. */
export const resumeWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '',
		restartWebhook: true,
	},
];

/** The callback to Until Callback: the job is read, so the output is not what the body claims. */
export async function resumeOnCallback(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const expected = await callbackSecret(this);
	const given = headerValue(
		this.getHeaderData() as Record<string, unknown>,
		CALLBACK_SECRET_HEADER,
	);
	if (!secretsMatch(given, expected))
		return answer(this, 401, { error: 'The callback secret is missing or wrong' });

	const jobId = jobFromBody(this.getBodyData())?.id;
	if (jobId === undefined) return answer(this, 400, { error: 'The callback body names no job ID' });

	const job = await readJob(this, jobId);
	if (!isFinal(job.status))
		return answer(this, 200, { received: true, resumed: false, status: String(job.status) });

	// The node does not run again after a wait: a failed job becomes an error item carrying the job.
	const message = failureMessage(job);
	const simplify = isSimplifyOn(this, 0, this.getNodeParameter('simplify', true));
	const json: IDataObject =
		message !== undefined
			? { error: message, job }
			: simplify
				? simplifyRecord('scenarioJob', job)
				: job;
	return {
		webhookResponse: { received: true, resumed: true },
		workflowData: [[{ json, pairedItem: { item: 0 } }]],
	};
}
