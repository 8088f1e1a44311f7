import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { checkApiKey, checkBaseUrl } from './apiKey';
import type { TransportContext } from './context';
import { CREDENTIAL_TYPE } from './context';
import {
	asNodeError,
	maybeSent,
	networkCode,
	networkError,
	readErrorEnvelope,
	serviceError,
} from './errors';
import { isCreation, paceRequest } from './pacer';
import { backoffDelay, rateLimitWaitMs, RETRY } from './retryPolicy';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, e.g. `/scenarios`; path parameters must already be encoded. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/**
	 * Whether a 5xx or a network failure may be retried. Defaults to true for GET and DELETE; a write
	 * is retried only when the caller knows it is idempotent (job creation carrying a request_id).
	 */
	idempotent?: boolean;
	/** Item the request is made for, so errors point at it. */
	itemIndex?: number;
	/** What the request is about, for 404 messages without a service message ("job abc"). */
	what?: string;
	/** For a write: how to check whether it happened when its answer is lost. */
	ifLost?: string;
}

export interface ApiResponse<T> {
	status: number;
	body: T;
	/** An earlier attempt of this call went out and its answer was lost (a retry then answered). */
	answerLost: boolean;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

interface ResolvedCredential {
	baseUrl: string;
	apiKey: string;
	/** The credential as read, handed to n8n's helper so that it does not read it a second time. */
	decrypted: ICredentialsDecrypted;
}

/** Base URL (checked, stripped of trailing slashes) and cleaned key from the credential. */
async function resolveCredential(
	ctx: TransportContext,
	itemIndex: number | undefined,
): Promise<ResolvedCredential> {
	const credentials: ICredentialDataDecryptedObject = await ctx.getCredentials(
		CREDENTIAL_TYPE,
		itemIndex,
	);
	const base = checkBaseUrl(credentials.baseUrl);
	const key = checkApiKey(credentials.apiKey);
	const problem = 'problem' in base ? base.problem : 'problem' in key ? key.problem : undefined;
	if (problem !== undefined) {
		throw new NodeOperationError(ctx.getNode(), `Workspace Practice API credential: ${problem}`, {
			itemIndex,
		});
	}
	const selected = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		baseUrl: (base as { baseUrl: string }).baseUrl,
		apiKey: (key as { key: string }).key,
		decrypted: {
			id: selected?.id ?? '',
			name: selected?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials,
		},
	};
}

/**
 * The one way our nodes talk to the service: authentication through n8n's helper, the error envelope
 * turned into a NodeApiError, 429 waited out as the service asks, 5xx and network failures retried
 * with backoff when the request is safe to repeat.
 */
export async function apiRequest<T = IDataObject>(
	ctx: TransportContext,
	request: ApiRequest,
): Promise<ApiResponse<T>> {
	const { method, path, qs, body, itemIndex } = request;
	const idempotent = request.idempotent ?? (method === 'GET' || method === 'DELETE');
	const credential = await resolveCredential(ctx, itemIndex);
	const { baseUrl } = credential;
	const creation = isCreation(method, path);
	const host = new URL(baseUrl).host;
	const options: IHttpRequestOptions = {
		method,
		url: `${baseUrl}${path}`,
		qs,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		headers: { Accept: 'application/json' },
	};
	if (body !== undefined) options.body = body;

	let attempt = 0;
	let rateLimitWaited = 0;
	let answerLost = false;
	for (;;) {
		attempt++;
		let response: FullResponse;
		const answered = await paceRequest(ctx, credential, creation);
		try {
			// n8n authenticates with the credential's `authenticate` as always; passing the data read
			// above spares a second read, which outside an execution (a webhook) costs n8n an isolate.
			response = (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL_TYPE,
				options,
				{ credentialsDecrypted: credential.decrypted },
			)) as FullResponse;
			answered();
		} catch (error) {
			answered();
			// No HTTP answer at all (refused, reset, timeout). Only safe requests are sent again.
			if (networkCode(error) === undefined && !isLikelyNetworkFailure(error)) {
				throw asNodeError(ctx.getNode(), error, itemIndex);
			}
			answerLost ||= maybeSent(error);
			if (idempotent && attempt < RETRY.maxAttempts) {
				await sleep(backoffDelay(attempt));
				continue;
			}
			throw networkError(ctx.getNode(), host, error, {
				write: method !== 'GET',
				ifLost: request.ifLost,
				itemIndex,
			});
		}

		const status = response.statusCode;
		if (status >= 200 && status < 300) return { status, body: response.body as T, answerLost };

		const envelope = readErrorEnvelope(response.body);
		if (status === 429) {
			const wait =
				rateLimitWaitMs(response.body, lowerCaseKeys(response.headers), Date.now()) ?? 1000;
			if (wait <= RETRY.maxRateLimitWaitMs && rateLimitWaited + wait <= RETRY.rateLimitBudgetMs) {
				rateLimitWaited += wait;
				await sleep(wait);
				continue;
			}
			throw serviceError(
				ctx.getNode(),
				status,
				envelope,
				path,
				itemIndex,
				`The service asked to wait ${Math.ceil(wait / 1000)} s; this node waits at most ${RETRY.maxRateLimitWaitMs / 1000} s at a time and ${RETRY.rateLimitBudgetMs / 1000} s per request. Try again later or spread the work out.`,
			);
		}
		if (status >= 500 && idempotent && attempt < RETRY.maxAttempts) {
			await sleep(backoffDelay(attempt));
			continue;
		}
		throw serviceError(ctx.getNode(), status, envelope, request.what ?? path, itemIndex);
	}
}

function lowerCaseKeys(headers: Record<string, unknown> | undefined): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(headers ?? {})) out[key.toLowerCase()] = value;
	return out;
}

/** n8n may wrap the socket error so that only its message is left. */
function isLikelyNetworkFailure(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /socket hang up|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|network/i.test(
		message,
	);
}
