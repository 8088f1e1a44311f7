import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { hasText } from '../values';

/** What the service says in its error envelope `{error: {type, code, message}}`. */
export interface ServiceErrorBody {
	type?: string;
	code?: string;
	message?: string;
}

export function readErrorEnvelope(body: unknown): ServiceErrorBody {
	if (typeof body === 'object' && body !== null && 'error' in body) {
		const error = (body as { error: unknown }).error;
		if (typeof error === 'object' && error !== null) {
			const { type, code, message } = error as Record<string, unknown>;
			return {
				type: typeof type === 'string' ? type : undefined,
				code: typeof code === 'string' ? code : undefined,
				message: typeof message === 'string' ? message : undefined,
			};
		}
	}
	if (hasText(body)) return { message: body.trim().slice(0, 500) };
	return {};
}

/** A short lead sentence per status, so the user knows what to do before reading details. */
function leadFor(status: number, envelope: ServiceErrorBody, what: string): string {
	if (status === 401)
		return 'The API key is invalid or inactive: check the Workspace Practice API credential';
	if (status === 403 && envelope.code === 'workspace_inactive') {
		return 'The workspace is inactive: the service refuses requests until an admin reactivates it';
	}
	if (status === 403) return 'The API key is not allowed to do this';
	if (status === 404) return `Not found: ${envelope.message ?? what}`;
	if (status === 429) return 'Rate limit reached';
	if (status >= 500) return `The service failed (${status})`;
	return envelope.message ?? `The service refused the request (${status})`;
}

/**
 * One NodeApiError for every HTTP failure: the message leads with what happened and the description
 * carries HTTP status, type, code and the service's message. The request itself (and so the API key)
 * is never attached.
 */
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
		`message: ${envelope.message ?? '(none)'}`,
	].join(' · ');
	const response: JsonObject = {
		httpCode: status,
		type: envelope.type ?? null,
		code: envelope.code ?? null,
		message: envelope.message ?? null,
	};
	const error = new NodeApiError(node, response, {
		message: `${leadFor(status, envelope, what)} [${status}${envelope.type ? ` ${envelope.type}` : ''}${envelope.code ? `/${envelope.code}` : ''}]`,
		description: extra ? `${facts}. ${extra}` : facts,
		httpCode: String(status),
		itemIndex,
	});
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
};

/**
 * A request that never got an HTTP answer: says which host could not be reached and why. The reason
 * is spelled out in words because NodeApiError replaces any message mentioning ECONNREFUSED & co. with
 * a generic sentence that drops the host.
 */
export function networkError(
	node: INode,
	host: string,
	cause: unknown,
	itemIndex?: number,
): NodeApiError {
	const code = networkCode(cause);
	const reason = (code && NETWORK_REASONS[code]) ?? 'no answer';
	return new NodeApiError(
		node,
		{ host, networkError: reason },
		{
			message: `Could not reach ${host} (${reason})`,
			description: `No HTTP answer came from ${host}. Check the Base URL in the credential and that the service is reachable from n8n.`,
			itemIndex,
		},
	);
}

export function networkCode(error: unknown): string | undefined {
	if (typeof error !== 'object' || error === null) return undefined;
	const { code, cause } = error as { code?: unknown; cause?: unknown };
	if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
	return cause === undefined || cause === error ? undefined : networkCode(cause);
}

/**
 * n8n's own errors pass through untouched (they already carry status, description and item); anything
 * else is wrapped so the UI shows it as a node error pointing at the item.
 */
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
