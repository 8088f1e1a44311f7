import type { TransportContext } from './context';

/** This process's requests per key in 24 hours, by workflow: who spent the day, and a warning first. */

/** The deployed service's requests a day per workspace. */
export const REQUESTS_PER_DAY = 1000;
/** The log warns once when this process's own requests on a key pass this share of the day. */
const WARN_SHARE = 0.8;

const DAY_MS = 86_400_000;
const BUCKET_MS = 60_000;

interface KeyUsage {
	/** Workflow label → minute bucket → requests. */
	byWorkflow: Map<string, Map<number, number>>;
	/** Warned since the count last stood below the line. */
	warned: boolean;
}

const usage = new Map<string, KeyUsage>();

export interface Spent {
	total: number;
	/** Most first. */
	byWorkflow: Array<{ workflow: string; requests: number }>;
}

/** A workflow's name and ID, as the editor shows them. */
function workflowLabel(ctx: TransportContext): string {
	let workflow: { id?: string; name?: string } = {};
	try {
		workflow = ctx.getWorkflow();
	} catch {
		// A context outside an execution may have no workflow; the request still counts.
	}
	const id = workflow.id ? String(workflow.id) : '';
	if (workflow.name) return id ? `"${workflow.name}" (${id})` : `"${workflow.name}"`;
	return id ? `workflow ${id}` : 'a workflow without ID';
}

export function spentToday(digest: string, now: number): Spent {
	const state = usage.get(digest);
	if (!state) return { total: 0, byWorkflow: [] };
	const oldest = Math.floor((now - DAY_MS) / BUCKET_MS);
	for (const [workflow, buckets] of state.byWorkflow) {
		for (const bucket of buckets.keys()) if (bucket <= oldest) buckets.delete(bucket);
		if (buckets.size === 0) state.byWorkflow.delete(workflow);
	}
	const byWorkflow = [...state.byWorkflow.entries()]
		.map(([workflow, buckets]) => ({
			workflow,
			requests: [...buckets.values()].reduce((sum, n) => sum + n, 0),
		}))
		.sort((a, b) => b.requests - a.requests || a.workflow.localeCompare(b.workflow));
	return { total: byWorkflow.reduce((sum, w) => sum + w.requests, 0), byWorkflow };
}

/** "A" 500, "B" 300 and 2 more workflows 12. */
export function describeSpent(spent: Spent, shown = 5): string {
	const head = spent.byWorkflow.slice(0, shown).map((w) => `${w.workflow} ${w.requests}`);
	const rest = spent.byWorkflow.slice(shown);
	if (rest.length > 0) {
		const sum = rest.reduce((n, w) => n + w.requests, 0);
		head.push(`${rest.length} more workflow${rest.length === 1 ? '' : 's'} ${sum}`);
	}
	return head.join(', ');
}

/** Counts one answered request (a minute's 429 too) and warns in the log once past WARN_SHARE. */
export function countRequest(ctx: TransportContext, digest: string, now: number): void {
	const state = usage.get(digest) ?? { byWorkflow: new Map(), warned: false };
	usage.set(digest, state);
	const workflow = workflowLabel(ctx);
	const buckets = state.byWorkflow.get(workflow) ?? new Map<number, number>();
	state.byWorkflow.set(workflow, buckets);
	const bucket = Math.floor(now / BUCKET_MS);
	buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);

	const line = Math.ceil(REQUESTS_PER_DAY * WARN_SHARE);
	const spent = spentToday(digest, now);
	if (spent.total < line) {
		state.warned = false;
		return;
	}
	if (state.warned) return;
	state.warned = true;
	const credential = ctx.getNode().credentials?.workspacePracticeApi?.name;
	ctx.logger.warn(
		`Workspace Practice: this n8n process has sent ${spent.total} requests in the last 24 hours with the API key of credential ${credential ? `"${credential}"` : '(unnamed)'}, ${Math.round((spent.total / REQUESTS_PER_DAY) * 100)}% of the workspace's ${REQUESTS_PER_DAY.toLocaleString('en-US')} a day. By workflow: ${describeSpent(spent)}. Other n8n processes and other tools on the workspace count too; at the limit every workflow on the workspace gets 429 until the day turns. To spend less: fewer reads a day per trigger (its Poll Times and Options → Max Reads a Day), By Callback for jobs.`,
		{ credential: credential ?? null, requestsToday: spent.total },
	);
}
