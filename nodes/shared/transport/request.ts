import type {
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
	declareFailure,
	foreignAnswer,
	maybeSent,
	networkCode,
	networkError,
	notTheServiceError,
	readErrorEnvelope,
	serviceError,
} from './errors';
import { countRequest, describeSpent, REQUESTS_PER_DAY, spentToday } from './dayBudget';
import { keyDigest } from './keyDigest';
import { isCreation, paceRequest } from './pacer';
import { runOf } from './run';
import { backoffDelay, isDayQuota, rateLimitWaitMs, RETRY } from './retryPolicy';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, e.g. `/scenarios`; path parameters must already be encoded. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Whether a 5xx or network failure may be retried: GET and DELETE, or a write with a request_id. */
	idempotent?: boolean;
	itemIndex?: number;
	/** What the request is about, for 404 messages without a service message ("job abc"). */
	what?: string;
	/** For a write: how to check whether it happened when its answer is lost. */
	ifLost?: string;
}

export interface ApiResponse<T> {
	status: number;
	body: T;
	/** An earlier attempt went out and its answer was lost (a retry then answered). */
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
	/** The credential as read, handed to n8n's helper so that it does not read it again. */
	decrypted: ICredentialsDecrypted;
}

async function resolveCredential(
	ctx: TransportContext,
	itemIndex: number | undefined,
): Promise<ResolvedCredential> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
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

/** The one way to the service: n8n's authentication, 429s waited out, safe requests retried. */
export async function apiRequest<T = IDataObject>(
	ctx: TransportContext,
	request: ApiRequest,
): Promise<ApiResponse<T>> {
	const credential = await resolveCredential(ctx, request.itemIndex);
	const { method, path, qs, body, itemIndex } = request;
	const idempotent = request.idempotent ?? (method === 'GET' || method === 'DELETE');
	const { baseUrl } = credential;
	const creation = isCreation(method, path);
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

	const { pace, deadline } = runOf(ctx);
	const inTime = (waitMs = 0) => deadline === undefined || deadline.allows(Date.now(), waitMs);
	let attempt = 0;
	let rateLimitWaited = 0;
	let answerLost = false;
	for (;;) {
		attempt++;
		if (deadline && !inTime()) throw deadline.refuse();
		const answered = await paceRequest(pace, credential, creation, deadline);
		const sentAt = Date.now();
		// A poll's request that hangs is cut at the deadline, so the poll returns what it has in time.
		if (deadline) options.timeout = Math.max(1, deadline.endsAt - sentAt);
		const sent = await send(ctx, options, credential);
		answered();
		deadline?.answered(Date.now() - sentAt);
		if ('failed' in sent) {
			const error = sent.failed;
			// Cut at the deadline (or failed past it): the read stops and keeps what is in hand.
			if (deadline && idempotent && !inTime()) throw deadline.refuse();
			// No HTTP answer at all (refused, reset, timeout). Only safe requests are sent again.
			if (networkCode(error) === undefined && !isLikelyNetworkFailure(error)) {
				throw asNodeError(ctx.getNode(), error, itemIndex);
			}
			answerLost ||= maybeSent(error);
			const pause = backoffDelay(attempt);
			if (idempotent && attempt < RETRY.maxAttempts && inTime(pause)) {
				await sleep(pause);
				continue;
			}
			throw networkError(ctx.getNode(), new URL(baseUrl).host, error, {
				write: method !== 'GET',
				ifLost: request.ifLost,
				itemIndex,
				baseUrl,
			});
		}
		const { statusCode: status, body: answer } = sent.response;
		const headers = lowerCaseKeys(sent.response.headers);
		const foreign = foreignAnswer(status, headers, answer);
		if (foreign !== undefined)
			throw notTheServiceError(ctx.getNode(), baseUrl, status, foreign, itemIndex);
		const envelope = readErrorEnvelope(answer);
		const now = Date.now();
		const wait = status === 429 ? (rateLimitWaitMs(answer, headers, now) ?? 1000) : 0;
		if (status === 429 && isDayQuota(wait, envelope.message)) {
			// The service does not count a request refused for a full day; neither does this process.
			throw dayQuotaError(ctx, credential, envelope, request, wait, now);
		}
		countRequest(ctx, keyDigest(credential.baseUrl, credential.apiKey), now);
		if (status >= 200 && status < 300) return { status, body: answer as T, answerLost };

		if (status === 429) {
			const fits =
				wait <= RETRY.maxRateLimitWaitMs && rateLimitWaited + wait <= RETRY.rateLimitBudgetMs;
			if (fits && inTime(wait)) {
				rateLimitWaited += wait;
				await sleep(wait);
				continue;
			}
			const error = serviceError(
				ctx.getNode(),
				status,
				envelope,
				path,
				itemIndex,
				fits
					? `The service asked to wait ${Math.ceil(wait / 1000)} s, longer than this poll may take; the trigger reads again after that wait.`
					: `The service asked to wait ${Math.ceil(wait / 1000)} s; this node waits at most ${RETRY.maxRateLimitWaitMs / 1000} s at a time and ${RETRY.rateLimitBudgetMs / 1000} s per request. Try again later or spread the work out.`,
			);
			throw declareFailure(error, { cause: 'rate-limited', retryAfterMs: wait });
		}
		if (status >= 500 && idempotent && attempt < RETRY.maxAttempts) {
			const pause = backoffDelay(attempt);
			if (inTime(pause)) {
				await sleep(pause);
				continue;
			}
		}
		throw serviceError(ctx.getNode(), status, envelope, request.what ?? path, itemIndex);
	}
}

/** One HTTP exchange: the full response, or what failed before an answer came. */
async function send(
	ctx: TransportContext,
	options: IHttpRequestOptions,
	credential: ResolvedCredential,
): Promise<{ response: FullResponse } | { failed: unknown }> {
	try {
		// The credential already read spares a second read, which in a webhook costs an isolate.
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			options,
			{ credentialsDecrypted: credential.decrypted },
		)) as FullResponse;
		return { response };
	} catch (failed) {
		return { failed };
	}
}

/** The workspace's day is used up: when it turns, and what this process spent, by workflow. */
function dayQuotaError(
	ctx: TransportContext,
	credential: ResolvedCredential,
	envelope: ReturnType<typeof readErrorEnvelope>,
	request: ApiRequest,
	waitMs: number,
	now: number,
) {
	const spent = spentToday(keyDigest(credential.baseUrl, credential.apiKey), now);
	const turns = new Date(Math.ceil((now + waitMs) / 1000) * 1000).toISOString();
	const minutes = Math.ceil(waitMs / 60_000);
	const inWords =
		minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
	const own =
		spent.total === 0
			? 'This n8n process sent no request on this key in the last 24 hours: other processes, tools or people on the workspace spent the day.'
			: `This n8n process sent ${spent.total} of them on this key in the last 24 hours: ${describeSpent(spent)}; other processes, tools or people on the workspace spent the rest.`;
	const error = serviceError(
		ctx.getNode(),
		429,
		envelope,
		request.what ?? request.path,
		request.itemIndex,
		`The service asked to wait ${Math.ceil(waitMs / 1000)} s: the workspace's ${REQUESTS_PER_DAY.toLocaleString('en-US')} requests a day are used up, and it takes requests again at ${turns} (in ${inWords}). ${own} Every workflow on the workspace gets this answer until then. To spend less, see the README's limits section: fewer trigger reads a day (the trigger's Poll Times and Options → Max Reads a Day), By Callback for jobs.`,
	);
	error.message = `Rate limit reached [429${envelope.type ? ` ${envelope.type}` : ''}]: the workspace's requests for the day are used up until ${turns}`;
	return declareFailure(error, { cause: 'quota-exhausted', resetsAtEpochMs: now + waitMs });
}

function lowerCaseKeys(headers: Record<string, unknown> | undefined): Record<string, unknown> {
	return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

/** n8n may wrap the socket error so that only its message is left. */
function isLikelyNetworkFailure(error: unknown): boolean {
	const message = error instanceof Error ? error.message : String(error);
	return /socket hang up|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|network/i.test(
		message,
	);
}
