import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../n8n-harness/runNode';
import type { RunNodeResult } from '../../n8n-harness/runNode';
import { PROBE_NODE_TYPE } from '../../n8n-harness/transportProbe';
import { TEST_KEY } from '../support/scriptedServer';

/** Runs the transport probe node through the engine against `baseUrl`. */
export async function probe(
	baseUrl: string,
	parameters: INodeParameters,
	options: {
		apiKey?: string;
		input?: Array<Record<string, unknown>>;
		continueOnFail?: boolean;
	} = {},
): Promise<RunNodeResult> {
	return await runNode({
		nodeType: PROBE_NODE_TYPE,
		parameters: { method: 'GET', path: '/workspace', ...parameters },
		credentials: { baseUrl, apiKey: options.apiKey ?? TEST_KEY },
		input: options.input as never,
		continueOnFail: options.continueOnFail,
	});
}

/** Everything a user or log could see of a failed run, as one string, for leak checks. */
export function visibleText(result: RunNodeResult): string {
	const error = result.error as unknown as Record<string, unknown> | undefined;
	return JSON.stringify({
		items: result.items,
		error: error && {
			...error,
			message: error.message,
			description: error.description,
			stack: error.stack,
		},
		resultData: result.run.data.resultData,
	});
}
