import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IPollFunctions,
	IWorkflowBase,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { commitStagedCursor, PollContext, runPollInStagingScope } from 'n8n-core';
import { randomUUID } from 'node:crypto';

import { activeWorkflow } from './activeWorkflow';
import { makeAdditionalData } from './additionalData';
import { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes } from './nodeTypes';
import type { TestCredentials } from './runNode';
import { forgetReads } from '../nodes/WorkspacePracticeTrigger/readGuard';

export const TRIGGER_NODE_TYPE = 'n8n-nodes-workspace-practice.workspacePracticeTrigger';
export const TRIGGER_NODE_NAME = 'Workspace Practice Trigger';

/**
 * How the server keeps a poll node's static data between polls (what n8n does, read from n8n-core 2.41
 * and the n8n server's trigger context):
 * - 'staged' (n8n 2.x with durable poll cursors): each poll works on its own copy of the stored data
 *   (`__runPoll` + `resolveNodeStaticData`). When the poll emits, that copy travels with the execution
 *   and is stored; when it returns nothing, the poll executor calls `__commitCursor`, which stores it;
 *   when it throws, the copy is thrown away.
 * - 'emit-only' (n8n 1.x, and 2.x before a node's cursor is migrated): the node mutates the workflow's
 *   live static data, which the server saves only when the poll emits. Other changes live in memory
 *   until n8n restarts (`restart()` here), which brings back what was last saved.
 */
export type Persistence = 'staged' | 'emit-only';

export interface PollHarnessOptions {
	parameters: INodeParameters;
	credentials: TestCredentials;
	persistence?: Persistence;
	/**
	 * What n8n 2.x's getPollBudgetMs answers (its default is five minutes; with `pollTimeoutMs` set, what
	 * the durable scheduler answers for that timeout, `durableBudgetMs`).
	 */
	pollBudgetMs?: number;
	/**
	 * n8n 2.41's durable scheduler (N8N_SCHEDULER_POLL_TIMEOUT, 45 s by default): a poll whose duration on
	 * Date.now exceeds it is abandoned, not cancelled. Its result or error is dropped and its staged
	 * static data is not committed (n8n's poll-trigger-task-handler races the poll against a timer).
	 * Here the poll runs to its end in virtual time and is judged then; the requests it sent after the
	 * timeout are counted in `sentAfterAbandon` (the rig reports each request: `requestSent`).
	 */
	pollTimeoutMs?: number;
	/** The workflow's ID, name and time zone (default test-trigger-workflow, "Trigger test", n8n's default zone). */
	workflow?: { id?: string; name?: string; timezone?: string };
}

export interface PollOutcome {
	/** Items of the emitted run (empty when the poll returned nothing or failed). */
	items: INodeExecutionData[];
	emitted: boolean;
	error?: Error;
	/** The durable scheduler gave up on the poll (`pollTimeoutMs`): nothing of it reached n8n. */
	abandoned?: boolean;
}

/** n8n's durable scheduler's lease on a trigger (N8N_SCHEDULER_LEASE_DURATION, 60 s by default). */
export const LEASE_MS = 60_000;

/**
 * What n8n 2.41's durable scheduler answers to getPollBudgetMs (trigger-execution-context.factory's
 * getExecutePollFunctions): the smaller of the poll timeout and the lease, less a margin of a fifth of
 * it, at least 5 s and at most half. 45 s → 36 s.
 */
export function durableBudgetMs(pollTimeoutMs: number, leaseMs = LEASE_MS): number {
	const ceiling = Math.min(pollTimeoutMs, leaseMs);
	return ceiling - Math.min(Math.max(0.2 * ceiling, 5_000), ceiling / 2);
}

/**
 * Tests poll many times a second of host time: unless a test sets it, the Knowledge Hub trigger's
 * Max Reads a Day is 0 so every poll reads (the quota tests set it explicitly; the other families'
 * tests set their own Options).
 */
function everyPollReads(parameters: INodeParameters): INodeParameters {
	const options = (parameters.options ?? {}) as IDataObject;
	if (options.maxReadsPerDay !== undefined) return parameters;
	return { ...parameters, options: { ...options, maxReadsPerDay: 0 } };
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;

/**
 * Runs the trigger's poll() through n8n-core's PollContext the way n8n's poll executor does: the poll
 * inside the staging scope, its result emitted, or the staged cursor committed when it returned
 * nothing, errors handed back instead of thrown.
 */
export class PollHarness {
	readonly workflow: Workflow;
	readonly node: INode;
	readonly credentialsHelper: TestCredentialsHelper;
	private readonly workflowData: IWorkflowBase;
	/** The node's static data as the server has stored it. */
	private persisted: IDataObject = {};
	/** The polls under way, each with the instant the durable scheduler gives up on it. */
	private readonly inFlight = new Set<{ abandonAt: number }>();
	/** Requests sent while a poll of this trigger had already been abandoned (`pollTimeoutMs`). */
	sentAfterAbandon = 0;

	constructor(private readonly options: PollHarnessOptions) {
		this.node = {
			id: randomUUID(),
			name: TRIGGER_NODE_NAME,
			type: TRIGGER_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: everyPollReads(options.parameters),
			credentials: {
				workspacePracticeApi: { id: 'test-credential', name: 'Workspace Practice (test)' },
			},
		};
		({ workflowData: this.workflowData, workflow: this.workflow } = activeWorkflow(
			options.workflow?.id ?? 'test-trigger-workflow',
			this.node,
			{},
			options.workflow ?? {},
		));
		this.credentialsHelper = new TestCredentialsHelper({
			workspacePracticeApi: { ...options.credentials },
		});
	}

	/** A copy of what the server has stored for the node. */
	get stored(): IDataObject {
		return clone(this.persisted);
	}

	/** Changes the node's parameters, as a user editing an active workflow would. */
	setParameters(parameters: INodeParameters): void {
		this.node.parameters = everyPollReads(parameters);
	}

	/** n8n restarts: the live static data becomes what was last saved; the process's memory is gone. */
	restart(): void {
		forgetReads();
		const live = this.workflow.getStaticData('node', this.node);
		for (const key of Object.keys(live)) delete live[key];
		Object.assign(live, clone(this.persisted));
	}

	/** The rig tells the harness of each request sent (at `now`), to count those after an abandon. */
	requestSent(now = Date.now()): void {
		if ([...this.inFlight].some((poll) => now > poll.abandonAt)) this.sentAfterAbandon++;
	}

	/**
	 * Polls started together, as n8n's legacy poller does when a poll is still running at the next
	 * Poll Times instant (or two ticks of one trigger when the timeout exceeds the lease).
	 */
	async pollTogether(count = 2): Promise<PollOutcome[]> {
		return await Promise.all(Array.from({ length: count }, async () => await this.poll()));
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger', cursor?: IDataObject): Promise<PollOutcome> {
		const { pollTimeoutMs } = this.options;
		const flight = { abandonAt: Date.now() + (pollTimeoutMs ?? Infinity) };
		this.inFlight.add(flight);
		try {
			return await this.runPoll(mode, flight.abandonAt, cursor);
		} finally {
			this.inFlight.delete(flight);
		}
	}

	/**
	 * n8n's durable scheduler reads a poll's cursor when its task begins, before the rest of its setup
	 * (another Poll Times entry's poll may commit meanwhile): the stored data is copied now, and the
	 * poll runs on that copy when the returned function is called.
	 */
	prefetched(): () => Promise<PollOutcome> {
		const cursor = clone(this.persisted);
		return async () => await this.poll('trigger', cursor);
	}

	private async runPoll(
		mode: 'trigger' | 'manual',
		abandonAt: number,
		cursor?: IDataObject,
	): Promise<PollOutcome> {
		const persistence = this.options.persistence ?? 'staged';
		const additionalData = makeAdditionalData(
			this.credentialsHelper,
			this.workflowData,
			randomUUID(),
		);
		const { pollTimeoutMs } = this.options;
		const budgetMs =
			this.options.pollBudgetMs ??
			(pollTimeoutMs === undefined ? undefined : durableBudgetMs(pollTimeoutMs));
		const budget = budgetMs === undefined ? undefined : () => budgetMs;
		const abandoned = () => Date.now() > abandonAt;
		const live = this.workflow.getStaticData('node', this.node);
		let emitted: INodeExecutionData[][] | undefined;
		let staged: IDataObject | undefined;
		let seed = '';
		// As n8n: a staged copy left as it came is not committed (takeStagedCursor gives null).
		const store = (data: IDataObject) => {
			if (mode === 'trigger' && !(staging && JSON.stringify(data) === seed))
				this.persisted = clone(data);
		};

		// n8n 2.x with durable cursors hands the poll a staged copy and a commit; emit-only has neither.
		type Args = ConstructorParameters<typeof PollContext>;
		const staging = persistence === 'staged';
		const commit: Args[7] = staging
			? async () => {
					if (staged) store(staged);
				}
			: undefined;
		const inScope: Args[8] = staging
			? async (poll) => {
					staged = clone(cursor ?? this.persisted);
					seed = JSON.stringify(staged);
					try {
						return await poll();
					} finally {
						staged = undefined;
					}
				}
			: undefined;
		const stagedData: Args[9] = staging
			? () => {
					if (!staged) throw new Error('the node read its static data outside a poll');
					return staged;
				}
			: undefined;
		const ctx = new PollContext(
			this.workflow,
			this.node,
			additionalData,
			mode,
			'activate',
			(data) => {
				emitted = data;
				if (!staging) store(live);
				else if (staged) store(staged);
			},
			(error) => {
				throw error;
			},
			commit,
			inScope,
			stagedData,
			budget,
		);

		const nodeType = nodeTypes.getByNameAndVersion(this.node.type, this.node.typeVersion);
		try {
			await runPollInStagingScope(ctx as IPollFunctions, async () => {
				const response = await nodeType.poll!.call(ctx as IPollFunctions);
				// Abandoned: n8n has already moved on; nothing is emitted, nothing committed.
				if (abandoned()) return;
				if (response !== null) ctx.__emit(response);
				else if (mode === 'trigger') await commitStagedCursor(ctx as IPollFunctions);
			});
		} catch (error) {
			if (abandoned()) return { items: [], emitted: false, abandoned: true };
			return { items: [], emitted: false, error: error as Error };
		}
		if (abandoned()) return { items: [], emitted: false, abandoned: true };
		return { items: emitted?.[0] ?? [], emitted: emitted !== undefined };
	}
}
