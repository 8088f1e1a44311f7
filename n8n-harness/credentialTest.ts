import type {
	ICredentialsDecrypted,
	ICredentialTestRequest,
	ICredentialType,
	INode,
	INodeType,
	INodeTypes,
	IDataObject,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';
import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';

import { WorkspacePractice } from '../nodes/WorkspacePractice/WorkspacePractice.node.js';

import { makeAdditionalData } from './additionalData';
import { credentialTypes, TestCredentialsHelper } from './credentialsHelper';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Tests the Workspace Practice API credential the way the n8n server does (CredentialsTester, 2.41.1):
 * the credential's own `test` request when it has one, else the function a node names with `testedBy`,
 * called with n8n-core's CredentialTestContext on the decrypted credential.
 */
export async function testCredential(data: IDataObject): Promise<CredentialTestResult> {
	const type: ICredentialType = credentialTypes.workspacePracticeApi;
	if (!type.test) {
		const node: INodeType = new WorkspacePractice();
		const testedBy = node.description.credentials?.find((c) => c.name === type.name)?.testedBy;
		const test =
			typeof testedBy === 'string' ? node.methods?.credentialTest?.[testedBy] : undefined;
		if (!test) throw new Error(`no test for the ${type.name} credential`);
		const additionalData = makeAdditionalData(
			new TestCredentialsHelper({}),
			{ id: 'w', name: 'credential test', nodes: [], connections: {} } as never,
			'credential-test',
		);
		const result = await test.call(new CredentialTestContext(additionalData), {
			id: 'c1',
			name: 'test',
			type: type.name,
			data: data as never,
		});
		return result as CredentialTestResult;
	}
	return await testRequestOf(type.test, data);
}

/**
 * A credential's `test` request as the n8n server runs it: a throwaway node whose only property
 * carries the test request as `routing.request`, executed by n8n-core's RoutingNode with the
 * credential applied; a failing status is matched against the test's `rules`.
 */
async function testRequestOf(
	testRequest: ICredentialTestRequest,
	data: IDataObject,
): Promise<CredentialTestResult> {
	const type = credentialTypes.workspacePracticeApi;
	const node: INode = {
		id: 'credential-test',
		name: 'Temp-Node',
		type: 'test.credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: { temp: '' },
		credentials: { [type.name]: { id: 'c1', name: 'test' } },
	};
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'test.credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: testRequest.request },
				},
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => NodeHelpers.getVersionedNodeType(nodeType, 1) as INodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const helper = new TestCredentialsHelper({ [type.name]: data as never });
	const additionalData = makeAdditionalData(
		helper,
		{ id: 'w', name: 'credential test', nodes: [node], connections: {} } as never,
		'credential-test',
	);
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: { main: [[{ json: {} }]] }, source: null },
		[],
	);
	const decrypted: ICredentialsDecrypted = {
		id: 'c1',
		name: 'test',
		type: type.name,
		data: data as never,
	};
	try {
		await new RoutingNode(context, nodeType, decrypted).runNode();
	} catch (error) {
		// As n8n's CredentialsTester.runRequestTest (2.41.1): a rule for the status, else the status text;
		// with no answer at all the network code alone (ECONNREFUSED); else the error's message.
		const status = statusOf(error);
		for (const rule of testRequest.rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === status) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		const code = (error as { cause?: { code?: unknown } }).cause?.code;
		if (status === undefined && typeof code === 'string') return { status: 'Error', message: code };
		return { status: 'Error', message: (error as Error).message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

function statusOf(error: unknown): number | undefined {
	const { httpCode, cause } = error as {
		httpCode?: string;
		cause?: { response?: { status?: number } };
	};
	if (httpCode && /^\d+$/.test(httpCode)) return Number(httpCode);
	return cause?.response?.status;
}
