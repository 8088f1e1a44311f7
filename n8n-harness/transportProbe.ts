import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { apiList, apiRequest } from '../nodes/shared/transport';
import { asNodeError } from '../nodes/shared/transport/errors';

export const PROBE_NODE_TYPE = 'test.transportProbe';

/**
 * A test-only node that sends one request of the test's choosing through the real transport, so every
 * transport rule (each method, idempotency, pagination) can be exercised through n8n-core's engine
 * before, and independently of, the operations that use it.
 */
export class TransportProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Transport Probe',
		name: PROBE_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Test-only',
		defaults: { name: 'Transport Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'workspacePracticeApi', required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/workspace' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{ displayName: 'Idempotent', name: 'idempotent', type: 'string', default: '' },
			{ displayName: 'List', name: 'list', type: 'boolean', default: false },
			{ displayName: 'Return All', name: 'returnAll', type: 'boolean', default: false },
			{ displayName: 'Limit', name: 'limit', type: 'number', default: 50 },
			{ displayName: 'Query', name: 'qs', type: 'json', default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			try {
				const path = this.getNodeParameter('path', i) as string;
				if (this.getNodeParameter('list', i) as boolean) {
					const rows = await apiList<IDataObject>(
						this,
						path,
						{},
						{
							returnAll: this.getNodeParameter('returnAll', i) as boolean,
							limit: this.getNodeParameter('limit', i) as number,
							itemIndex: i,
						},
					);
					out.push(...rows.map((json) => ({ json, pairedItem: { item: i } })));
					continue;
				}
				const bodyText = this.getNodeParameter('body', i) as string;
				const idempotent = this.getNodeParameter('idempotent', i) as string;
				const qsText = this.getNodeParameter('qs', i, '') as string;
				const { status, body } = await apiRequest<IDataObject>(this, {
					method: this.getNodeParameter('method', i) as 'GET',
					path,
					qs: qsText ? (JSON.parse(qsText) as IDataObject) : undefined,
					body: bodyText ? (JSON.parse(bodyText) as IDataObject) : undefined,
					idempotent: idempotent === '' ? undefined : idempotent === 'true',
					itemIndex: i,
				});
				out.push({ json: { status, body }, pairedItem: { item: i } });
			} catch (error) {
				throw asNodeError(this.getNode(), error, i);
			}
		}
		return [out];
	}
}
