import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
	ICredentials,
	ICredentialType,
	IExecuteData,
	IHttpRequestHelper,
	IDataObject,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

import { WorkspacePracticeApi } from '../credentials/WorkspacePracticeApi.credentials.js';

export const credentialTypes = { workspacePracticeApi: new WorkspacePracticeApi() };

/**
 * Stands in for the n8n server's credentials helper: hands out the test's credential data and applies
 * the credential class's real `authenticate` (a function called, or a block's expressions resolved), as the
 * server does.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	/** Every request the nodes sent through authentication, headers included, for leak checks. */
	readonly authenticatedRequests: IHttpRequestOptions[] = [];

	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = credentialTypes[typeName as keyof typeof credentialTypes] as ICredentialType;
		let options = requestOptions as IHttpRequestOptions;
		if (!type?.authenticate || !workflow || !node) return options;
		if (typeof type.authenticate === 'function') {
			// As n8n's server does: the credential's own function, no expression.
			options = await type.authenticate(credentials, options);
		} else {
			const headers = type.authenticate.properties.headers ?? {};
			const resolved: IDataObject = {};
			for (const [name, value] of Object.entries(headers)) {
				resolved[name] = workflow.expression.getSimpleParameterValue(
					node,
					value as string,
					'internal',
					{ $credentials: credentials },
					undefined,
					value as string,
				) as string;
			}
			options.headers = { ...(options.headers ?? {}), ...resolved };
		}
		this.authenticatedRequests.push(options);
		return options;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(_details: INodeCredentialsDetails, _type: string): Promise<ICredentials> {
		throw new Error('not used by these tests');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		_mode?: WorkflowExecuteMode,
		_executeData?: IExecuteData,
		_raw?: boolean,
		_expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credential of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type as keyof typeof credentialTypes]?.properties ?? [];
	}
}
