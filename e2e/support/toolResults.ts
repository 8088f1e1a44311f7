/**
 * Shared by the agent and MCP steps: a simulator of their own (their jobs, archives and publications
 * do not disturb the other steps' fixtures), a credential for it, and readers for what a tool
 * returned to its caller.
 */
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../simulator';
import type { SuiteContext } from '../context';
import { CheckError } from '../harness';
import type { CredentialRef } from '../../scripts/n8n/workflows';

export interface OwnSimulator {
	sim: RunningSimulator;
	credential: CredentialRef;
}

export async function ownSimulator(
	ctx: SuiteContext,
	name: string,
	options: SimulatorOptions = {},
): Promise<OwnSimulator> {
	const sim = await startSimulator({
		jobTimings: { queuedMs: 300, processingMs: 1500 },
		...options,
	});
	try {
		const created = await ctx.api.createCredential(
			`Workspace Practice (${name} simulator)`,
			'workspacePracticeApi',
			{
				baseUrl: sim.baseUrl,
				apiKey: sim.apiKey,
			},
		);
		return { sim, credential: { id: created.id, name: created.name } };
	} catch (error) {
		await sim.close();
		throw error;
	}
}

export type Row = Record<string, unknown>;

/**
 * A successful tool result as n8n hands it on: the JSON text of the items' json (a list). Throws a
 * CheckError quoting the text when it is not.
 */
export function parseRows(text: string, what: string): Row[] {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		throw new CheckError(`${what}: the tool result is not JSON: ${text.slice(0, 400)}`);
	}
	if (!Array.isArray(parsed))
		throw new CheckError(`${what}: expected a list of items, got ${text.slice(0, 400)}`);
	return parsed as Row[];
}

/** The one object a Get or Create tool returned. */
export function parseOne(text: string, what: string): Row {
	const rows = parseRows(text, what);
	if (rows.length !== 1 || typeof rows[0] !== 'object' || rows[0] === null) {
		throw new CheckError(`${what}: expected one object, got ${text.slice(0, 400)}`);
	}
	return rows[0];
}

/**
 * The message of a failed tool call as n8n's AI Agent (v3) hands it to the model, `[{"error": "…"}]`;
 * undefined for any other result.
 */
export function agentToolError(text: string): string | undefined {
	try {
		const parsed = JSON.parse(text) as unknown;
		if (!Array.isArray(parsed) || parsed.length !== 1) return undefined;
		const [only] = parsed as Array<Record<string, unknown>>;
		const keys = Object.keys(only ?? {});
		return keys.length === 1 && keys[0] === 'error' && typeof only.error === 'string'
			? only.error
			: undefined;
	} catch {
		return undefined;
	}
}
