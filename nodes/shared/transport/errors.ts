import type { Failure, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ErrorEnvelope } from '../contract';
import { hasText } from '../values';
import { inFormWords, withoutFullStop } from './formWords';

export type ServiceErrorBody = Partial<Omit<ErrorEnvelope['error'], 'retry_after'>>;

export function readErrorEnvelope(body: unknown): ServiceErrorBody {
	const error = (body as { error?: unknown } | null)?.error;
	if (typeof error === 'object' && error !== null) {
		const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
		const { type, code, message } = error as Record<string, unknown>;
		return { type: text(type), code: text(code), message: text(message) };
	}
	return hasText(body) ? { message: body.trim().slice(0, 500) } : {};
}

/** A short lead sentence per status, before the details. */
function leadFor(status: number, envelope: ServiceErrorBody, what: string): string {
	if (status === 401)
		return 'The API key was not accepted by the service (revoked, or from another workspace)';
	if (status === 403 && envelope.code === 'workspace_inactive')
		return 'The workspace is inactive: the service refuses requests until an admin reactivates it';
	if (status === 403) return 'The API key is not allowed to do this';
	if (status === 404) return `Not found: ${envelope.message ?? what}`;
	if (status === 429) return 'Rate limit reached';
	if (status >= 500) return `The service failed (${status})`;
	return envelope.message !== undefined
		? withoutFullStop(inFormWords(envelope.message).text)
		: `The service refused the request (${status})`;
}

const NEXT_STEPS: Record<number, string> = {
	401: "Check the API key in the Workspace Practice API credential: copy it again from the workspace settings under Settings → API (a workspace admin makes keys), and check that the Base URL is this workspace's.",
	403: "Ask a workspace admin for access, or use an API key whose user may do this; the node's settings are not the problem.",
	404: 'Check the ID, or pick the object from the list: it may have been archived, deleted, or belong to another workspace.',
	409: 'The object changed or already exists: read it again (its Get operation) and repeat the change on its current state.',
	429: 'The service allows 60 requests a minute and 1,000 a day per workspace: wait, then run again, or spread the work out.',
};

/** What to do next: the description's second sentence. */
function nextStepFor(status: number, envelope: ServiceErrorBody): string {
	if (status === 400 || status === 422) {
		const { labels } = inFormWords(envelope.message ?? '');
		const fields = labels.length
			? labels.map((label) => `"${label}"`).join(' and ')
			: 'the field the message names';
		return `Fix ${fields} in this node (or the input item its expression reads), then run the node again.`;
	}
	if (status === 403 && envelope.code === 'workspace_inactive')
		return 'Ask a workspace admin to reactivate the workspace, then run the node again.';
	if (status >= 500)
		return 'The service failed, not the request: try again in a few minutes; if it keeps failing, report it with the time of the error.';
	return (
		NEXT_STEPS[status] ??
		'Check the fields this operation sends against the message, then run the node again.'
	);
}

/** What happened, the service's facts, what to do next; the request (and its key) never attached. */
export function serviceError(
	node: INode,
	status: number,
	envelope: ServiceErrorBody,
	what: string,
	itemIndex?: number,
	extra?: string,
): NodeApiError {
	const facts = [
		`HTTP ${status}`,
		`type: ${envelope.type ?? '(none)'}`,
		`code: ${envelope.code ?? '(none)'}`,
		`message: ${envelope.message === undefined ? '(none)' : withoutFullStop(envelope.message)}`,
	].join(' · ');
	const response: JsonObject = {
		httpCode: status,
		type: envelope.type ?? null,
		code: envelope.code ?? null,
		message: envelope.message ?? null,
	};
	const failure: Failure | undefined =
		status === 401
			? { cause: 'credential-invalid' }
			: status >= 500
				? { cause: 'temporarily-unavailable' }
				: undefined;
	const error = new NodeApiError(node, response, {
		message: `${leadFor(status, envelope, what)} [${status}${envelope.type ? ` ${envelope.type}` : ''}${envelope.code ? `/${envelope.code}` : ''}]`,
		description: `${facts}. ${extra ?? nextStepFor(status, envelope)}`,
		httpCode: String(status),
		itemIndex,
		failure,
	});
	return keptOnV1(error, failure);
}

/**
 * Why a request failed, as n8n 2.41's scheduler reads it to back a poll off, declared on an error
 * already built (a 429 once its wait is known) the way n8n-workflow documents: built again with
 * `failure` in its options, which hands back the same error with the failure on it. The errors built
 * here pass `failure` in their options at once.
 */
export function declareFailure<E extends NodeApiError>(error: E, failure: Failure): E {
	const declared = new NodeApiError(error.node, error as unknown as JsonObject, { failure });
	return keptOnV1(declared as E, failure);
}

/**
 * n8n-workflow 1.x has no `failure` option and drops it: the property is set there, so the error
 * reads the same on 1.x (whose n8n reads nothing from it) as on 2.x.
 */
function keptOnV1<E extends NodeApiError>(error: E, failure: Failure | undefined): E {
	if (failure && error.failure !== failure) error.failure = failure;
	return error;
}

const NETWORK_REASONS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection closed before an answer',
	ENOTFOUND: 'host name not found',
	EAI_AGAIN: 'host name lookup failed',
	ETIMEDOUT: 'timed out',
	ECONNABORTED: 'connection aborted',
	EHOSTUNREACH: 'host unreachable',
	EPIPE: 'connection closed while sending',
};

/** Failures before any byte of the request leaves; a reset, a timeout or a hang-up come after. */
const NOT_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'];

export function maybeSent(error: unknown): boolean {
	const code = networkCode(error);
	if (code !== undefined) return !NOT_SENT.includes(code);
	const message = error instanceof Error ? error.message : String(error);
	return !new RegExp(NOT_SENT.join('|')).test(message);
}

export interface NetworkErrorContext {
	/** A write (POST, PATCH, DELETE): a lost answer then means the change may have been made. */
	write: boolean;
	/** How to check whether a lost write happened ("Scenario → Get Many …"). */
	ifLost?: string;
	itemIndex?: number;
	baseUrl: string;
}

/**
 * No HTTP answer, in words: nothing was sent (check the Base URL), or the answer was lost (a write
 * may have happened). Reasons in words, not ECONNREFUSED & co.; the nodes and the credential test
 * (methods/credentialTest.ts) say it alike.
 */
export function networkWords(
	host: string,
	cause: unknown,
	{ write, ifLost, baseUrl }: Omit<NetworkErrorContext, 'itemIndex'>,
): { message: string; description: string; reason: string } {
	const code = networkCode(cause);
	const reason = (code && NETWORK_REASONS[code]) ?? 'no answer';
	const sent = maybeSent(cause);
	const description = !sent
		? `Nothing was sent: no connection to ${host} could be opened. Check the Base URL (${baseUrl}) in the Workspace Practice API credential: its host and port must be the service's, and the service must be reachable from n8n.`
		: write
			? `The request reached the network but its answer was lost, so the change may have been made on the service. Check before running the node again: ${ifLost ?? 'read the object with its Get operation, or find it with Get Many'}.`
			: 'The request was sent but no answer came back; a read changes nothing, so run the node again. If it keeps happening, check that the service is reachable from n8n.';
	return {
		message: `${sent ? 'No answer from' : 'Could not reach'} ${host} (${reason})`,
		description,
		reason,
	};
}

/** No HTTP answer, as a NodeApiError (NodeApiError would replace a message naming ECONNREFUSED). */
export function networkError(
	node: INode,
	host: string,
	cause: unknown,
	context: NetworkErrorContext,
): NodeApiError {
	const failure: Failure = { cause: 'temporarily-unavailable' };
	const { message, description, reason } = networkWords(host, cause, context);
	const error = new NodeApiError(
		node,
		{ host, networkError: reason },
		{ message, description, itemIndex: context.itemIndex, failure },
	);
	return keptOnV1(error, failure);
}

export function networkCode(error: unknown): string | undefined {
	if (typeof error !== 'object' || error === null) return undefined;
	const { code, cause } = error as { code?: unknown; cause?: unknown };
	if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
	return cause === undefined || cause === error ? undefined : networkCode(cause);
}

/** n8n's own errors pass through (with the item, when they lack one); anything else is wrapped. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined && error.context.itemIndex === undefined)
			error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error instanceof Error ? error : String(error), {
		itemIndex,
	});
}

/**
 * What an answer below 500 (a proxy's 5xx page is the service failing) that cannot be the service's
 * is; usually n8n's address, or a web page's, pasted as the Base URL.
 */
export function foreignAnswer(
	status: number,
	headers: Record<string, unknown>,
	body: unknown,
): string | undefined {
	if (status >= 500) return undefined;
	const type = String(headers['content-type'] ?? '');
	if (/text\/html/i.test(type) || (typeof body === 'string' && /^\s*<(!doctype|html)/i.test(body)))
		return 'a web page (HTML)';
	// n8n's own errors: `{status: "error", message}` or `{code: 404, message}`.
	const json = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
	const n8nError = json.status === 'error' || typeof json.code === 'number';
	if (status >= 400 && !('error' in json) && 'message' in json && n8nError)
		return "JSON that is not the Workspace Practice API's (it looks like n8n's own)";
	return undefined;
}

/** The Base URL answered, but not as the service: said, naming it, instead of "Not found". */
export function notTheServiceError(
	node: INode,
	baseUrl: string,
	status: number,
	what: string,
	itemIndex?: number,
): NodeApiError {
	const failure: Failure = { cause: 'configuration-invalid' };
	const error = new NodeApiError(
		node,
		{ httpCode: status, baseUrl },
		{
			message: `The Base URL ${baseUrl} answered with ${what} (HTTP ${status}), not the Workspace Practice API`,
			description: `Check the Base URL in the Workspace Practice API credential: it must be the service's API address ending in /rest/v1 (https://api.exec.com/rest/v1 for the hosted service, or the one your workspace admin gave you), not n8n's own address (such as http://localhost:5678/rest/v1) or a web page's.`,
			httpCode: String(status),
			itemIndex,
			failure,
		},
	);
	return keptOnV1(error, failure);
}
