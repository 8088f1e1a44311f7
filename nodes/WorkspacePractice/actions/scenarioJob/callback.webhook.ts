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

/**
 * The node's one webhook: the waiting ("restart") webhook n8n serves at this execution's resume URL.
 * Nothing is registered on the service: the URL travels with each job as its callback_url.
 */
export const resumeWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '',
		restartWebhook: true,
	},
];

/**
 * The service's callback to a waiting "Until Callback" execution. The secret is checked first (wrong
 * or missing: 401, the execution keeps waiting); then the job is read once, so the output is the
 * service's own record and not whatever the request body claims. A job not yet final (an early or
 * stray delivery) is acknowledged without resuming.
 */
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

	// The node's own code does not run again after a wait, so a failed or cancelled job becomes an
	// error item (as Continue On Fail would give) carrying the whole job for the next nodes; a
	// completed one is the node's result, shaped by Simplify as the router shapes every other one.
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
