/** Runs the action node through n8n-core's engine (the n8n-harness library), as a manual execution does. */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runNode } from '../n8n-harness/runNode';
import type { RunNodeOptions } from '../n8n-harness/runNode';

export interface Endpoint {
	baseUrl: string;
	apiKey: string;
}

/** The node's output items; an execution error is thrown so a broken figure cannot pass as fast. */
export async function runOperation(
	endpoint: Endpoint,
	parameters: INodeParameters,
	input?: IDataObject[],
	/** E.g. static data kept between runs and mode 'trigger', as an active workflow runs. */
	more: Partial<RunNodeOptions> = {},
): Promise<INodeExecutionData[]> {
	const { items, error } = await runNode({
		...more,
		parameters,
		credentials: { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey },
		input,
	});
	if (error)
		throw new Error(
			`The node failed: ${error.message}${error.description ? ` (${error.description})` : ''}`,
		);
	return items;
}
