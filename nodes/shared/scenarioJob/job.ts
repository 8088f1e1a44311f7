import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../transport';
import type { TransportContext } from '../transport';

/** Job states that never change again (spec 3.1). */
export const FINAL_STATUSES = ['completed', 'failed', 'cancelled'] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];

export function isFinal(status: unknown): status is FinalStatus {
	return typeof status === 'string' && (FINAL_STATUSES as readonly string[]).includes(status);
}

/** GET reads a job, DELETE cancels it; the service answers the job either way. */
function jobRequest(method: 'GET' | 'DELETE') {
	return async (ctx: TransportContext, jobId: string, itemIndex?: number): Promise<IDataObject> => {
		const path = `/scenario-studio/jobs/${encodeURIComponent(jobId)}`;
		const what = `job ${jobId}`;
		return (await apiRequest<IDataObject>(ctx, { method, path, itemIndex, what })).body;
	};
}

export const readJob = jobRequest('GET');
export const cancelJob = jobRequest('DELETE');

function describeFailure(job: IDataObject): { code: string; message: string } {
	const error = (job.error ?? {}) as IDataObject;
	return {
		code: typeof error.code === 'string' ? error.code : '(no code)',
		message: typeof error.message === 'string' ? error.message : '(no message)',
	};
}

/** The sentence for a job that ended without a scenario; undefined for a completed job. */
export function failureMessage(job: IDataObject): string | undefined {
	if (job.status === 'failed') {
		const { code, message } = describeFailure(job);
		return `Scenario job ${String(job.id)} failed: ${code}: ${message}`;
	}
	if (job.status === 'cancelled')
		return `Scenario job ${String(job.id)} was cancelled before it finished`;
	return undefined;
}

export function jobEndedError(
	node: INode,
	job: IDataObject,
	itemIndex: number,
): NodeOperationError | undefined {
	const message = failureMessage(job);
	if (message === undefined) return undefined;
	return new NodeOperationError(node, message, {
		itemIndex,
		description:
			job.status === 'failed'
				? `The service ended the job with status "failed" (error code ${describeFailure(job).code}). Change the prompt or context and create a new job.`
				: 'The job was cancelled (through the API or by "Cancel Job on Timeout"); no scenario was created.',
	});
}
