/** The results of `npm run bench:n8n` and their table, with the issue's goals. */
import type { N8nBenchConfig } from './config';
import type { JobWaitFigures, LimitedFigures, PerItemFigures, ReturnAllFigures } from './peer';
import type { CallbackFigures, PollingWaitFigures } from './queue';

export interface N8nBenchResults {
	date: string;
	quick: boolean;
	n8nVersion: string;
	machine: { cpus: number; cpuModel: string; loadAtStart: number[]; loadAtEnd?: number[] };
	runs: number;
	peer: {
		perItem?: PerItemFigures;
		limited?: LimitedFigures;
		returnAll?: ReturnAllFigures;
		jobWait?: JobWaitFigures;
	};
	queue: {
		callbacks?: CallbackFigures;
		pollingWaits?: PollingWaitFigures;
		callbacksLegacyEngine?: CallbackFigures;
		/** The same burst delivered to n8n's own Webhook node (Header Auth), in the same run. */
		callbacksPeer?: CallbackFigures;
		/** 100 callbacks a minute for 5 minutes to the Job Trigger, 10% repeats, a few wrong secrets. */
		callbacksRealistic?: CallbackFigures;
		/**
		 * Diagnosis: the same burst to the Job Trigger with Authentication None and Confirm With API off
		 * (no credential read, no request; wrong secrets start executions by design).
		 */
		callbacksBare?: CallbackFigures;
	};
	notes: string[];
	durationSeconds: number;
}

const verdict = (ok: boolean): string => (ok ? 'met' : '**missed**');

function callbackRow(
	label: string,
	cb: CallbackFigures,
	goal: string,
	ok: boolean | undefined,
): string {
	const cpu = Object.entries(cb.cpuSeconds)
		.map(([k, v]) => `${k} ${v}`)
		.join(', ');
	return `| ${label}: ${cb.delivered} job callbacks over ${cb.overSeconds} s + ${cb.duplicatesDelivered} duplicates (${cb.profile?.concurrentDuplicates ?? 0} sent with the first) + ${cb.wrongSecretDelivered} wrong secrets | ${goal} | started ${cb.started}, lost ${cb.lost}, duplicated ${cb.duplicated} (${cb.concurrentDuplicated ?? '-'} of concurrent repeats), rejected ${cb.rejected} (${cb.wrongSecretExecutions} executions); delivery → end median ${cb.medianMs} ms, p99 ${cb.p99Ms} ms | PostgreSQL, main + webhook process + 2 workers; median (p99) ms from delivery to the worker starting ${cb.phases.toStartMs} (${cb.phases.p99ToStartMs}), run ${cb.phases.runMs} (${cb.phases.p99RunMs}); CPU s: ${cpu} | ${ok === undefined ? '' : verdict(ok)} |`;
}
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

export function rows(r: N8nBenchResults): string[] {
	const out: string[] = [];
	const { perItem, limited, returnAll, jobWait } = r.peer;
	if (perItem) {
		out.push(
			`| n8n: ${perItem.items} items through Workspace → Get vs HTTP Request node (Header Auth), ${perItem.latencyMs} ms latency, no limit | ≤ 1.0× | ${s(perItem.nodeMs)} → ratio ${perItem.ratio} | ${s(perItem.httpRequestMs)} (HTTP Request sends all items at once) | ${verdict(perItem.ratio <= 1)} |`,
		);
	}
	if (limited) {
		const n = limited.node;
		const h = limited.httpRequest;
		// Issue 25: with the deployed limits, every item within 1.05× the bound and at most ten 429s.
		const ok =
			n.completedRuns === limited.runs &&
			n.itemsFailed === 0 &&
			n.ratioVsBound <= 1.05 &&
			n.rateLimited <= 10;
		// Read from timeScale, which older records have too: on a scaled clock the node's pacing is off.
		const how =
			limited.timeScale === 1
				? 'real time, node at its default Batching'
				: `clock × ${limited.timeScale}, node pacing off`;
		out.push(
			`| n8n: ${limited.items} items with ${limited.perMinute}/min, ${limited.perDay}/day (${how}) | ${limited.items} of ${limited.items}, no error, ≤ 1.05× bound, ≤ 10 × 429 | node: ${n.itemsCompleted} done, ${n.itemsFailed} failed, ${n.rateLimited} × 429 of ${n.requests} requests, ${n.simSeconds} s → ${n.ratioVsBound}× bound ${n.boundSimSeconds} s (${limited.runs === 1 ? 'one run' : `median of ${limited.runs} runs`}) | HTTP Request: ${h.itemsCompleted} done, ${h.itemsFailed} failed, ${h.rateLimited} × 429 of ${h.requests} requests, ${h.simSeconds} s | ${verdict(ok)} |`,
		);
	}
	if (returnAll) {
		const ok = returnAll.ratio <= 0.3 && returnAll.nodeRequests === 100;
		out.push(
			`| n8n: Return All of ${returnAll.rows} scenarios vs HTTP Request pagination (page_size 100), ${returnAll.latencyMs} ms latency | ≤ 0.3× with 100 requests | ${s(returnAll.nodeMs)}, ${returnAll.nodeRequests} requests → ratio ${returnAll.ratio}; peak RSS ${returnAll.nodePeakRssMb} MB | ${s(returnAll.httpRequestMs)}, ${returnAll.httpRequestRequests} requests; peak RSS ${returnAll.httpRequestPeakRssMb} MB (n8n at ${returnAll.rssBeforeMb} MB before) | ${verdict(ok)} |`,
		);
	}
	if (jobWait) {
		const w = jobWait.httpRequestWaitLoop;
		out.push(
			`| n8n: ${jobWait.jobMinutes}-min job, API calls / executions / node runs | shown | By Polling ${jobWait.byPolling.calls} / ${jobWait.byPolling.executions} / ${jobWait.byPolling.nodeRuns}; Until Callback ${jobWait.untilCallback.calls} / ${jobWait.untilCallback.executions} / ${jobWait.untilCallback.nodeRuns} | HTTP Request + Wait ${w.waitSeconds} s + IF: ${w.calls} / ${w.executions} / ${w.nodeRuns} |  |`,
		);
	}
	const {
		callbacks: cb,
		pollingWaits: pw,
		callbacksPeer: peer,
		callbacksRealistic: real,
	} = r.queue;
	if (cb) {
		// Burst goal: at least as many started as the Webhook node, p99 no worse, no second executions.
		const ok = peer
			? cb.started >= peer.started &&
				cb.p99Ms <= peer.p99Ms &&
				(cb.concurrentDuplicated ?? cb.duplicated) === 0 &&
				cb.wrongSecretExecutions === 0
			: cb.started === cb.delivered && cb.lost === 0 && cb.duplicated === 0 && cb.p99Ms <= 5000;
		out.push(
			callbackRow(
				'queue mode, Job Trigger',
				cb,
				peer ? 'started ≥ the Webhook node, p99 no worse' : 'all started once, p99 ≤ 5 s',
				ok,
			),
		);
	}
	if (peer) {
		out.push(
			callbackRow(
				"queue mode, n8n's Webhook node (Header Auth), the same burst",
				peer,
				'peer',
				undefined,
			),
		);
	}
	const bare = r.queue.callbacksBare;
	if (bare) {
		out.push(
			callbackRow(
				'diagnosis, queue mode, Job Trigger bare (Authentication None, Confirm With API off: no credential read, no request; wrong secrets start executions by design), the same burst',
				bare,
				'-',
				undefined,
			),
		);
	}
	if (real) {
		const ok =
			real.started === real.delivered &&
			real.lost === 0 &&
			real.duplicated === 0 &&
			real.wrongSecretExecutions === 0 &&
			real.p99Ms <= 5000;
		out.push(
			callbackRow(
				'queue mode, Job Trigger, realistic (100 a minute)',
				real,
				'every callback started exactly once, 0 wrong-secret executions, p99 ≤ 5 s',
				ok,
			),
		);
	}
	const legacy = r.queue.callbacksLegacyEngine;
	if (legacy) {
		out.push(
			`| diagnosis: the same callbacks with N8N_EXPRESSION_ENGINE=legacy (not n8n's default) | - | started ${legacy.started}, lost ${legacy.lost}, duplicated ${legacy.duplicated}, rejected ${legacy.rejected}; median ${legacy.medianMs} ms, p99 ${legacy.p99Ms} ms | CPU s: ${Object.entries(
				legacy.cpuSeconds,
			)
				.map(([k, v]) => `${k} ${v}`)
				.join(', ')} (default engine: ${
				cb
					? Object.entries(cb.cpuSeconds)
							.map(([k, v]) => `${k} ${v}`)
							.join(', ')
					: '-'
			}) |  |`,
		);
	}
	if (pw) {
		out.push(
			`| queue mode: ${pw.executions} By Polling waits at once (${pw.jobMinutes}-min jobs) | all complete | ${pw.completed} of ${pw.executions} completed, ${pw.callsPerJob} API calls per job | all ended ${pw.wallSeconds} s after the first call | ${verdict(pw.completed === pw.executions && pw.executions > 0)} |`,
		);
	}
	return out;
}

export function markdown(r: N8nBenchResults, cfg: N8nBenchConfig): string {
	const lines = [
		`Real-n8n bench of ${r.date.slice(0, 10)}: n8n ${r.n8nVersion} on ${r.machine.cpus} × ${r.machine.cpuModel}, shared with other work (load average ${r.machine.loadAtStart.join(' ')} at the start, ${(r.machine.loadAtEnd ?? []).join(' ')} at the end); every figure the median of ${r.runs} runs, ratios pair by pair, in ${Math.round(r.durationSeconds)} s${r.quick ? ' (--quick: small sizes, not recorded)' : ''}.`,
		'',
		'| Figure | Goal | Measured | Baseline / detail | |',
		'|---|---|---|---|---|',
		...rows(r),
		'',
		`- The simulator runs in a process of its own for every item; n8n runs in regular mode (SQLite, one process) for the side-by-side items, each workflow started by a Webhook that answers when the last node ends. Input items come from a Split Out of the posted array; Return All's HTTP Request side ends with a Split Out of \`data\` so both sides put out one item per scenario.`,
		cfg.limited.timeScale === 1
			? `- Rate-limited per item: real time (the node paces by real minutes), the node at its default Batching (10 items in parallel, paced to 60 requests and 10 creations a minute), the HTTP Request node at its defaults (all items at once); the simulator's windows are emptied before each side, so one side's requests do not count against the other's day. Bound: floor((items − 1) / 60) minutes plus the share of an unlimited run of the node (pacing off, the simulator without limits), measured just before, that the items after the last full window need.`
			: `- Rate-limited per item: the simulator's clock runs ${cfg.limited.timeScale}× faster than real time and a proxy divides every Retry-After by the same factor (bench/scaledTime.ts), so the minute lasts ${60 / cfg.limited.timeScale} s; times are in the service's seconds; the node's pacing is off (it paces by real minutes). Bound: floor((items − 1) / 60) minutes plus the share of an unlimited run of the node, measured just before, that the items after the last full window need.`,
		`- Job wait runs in real time (n8n's timers cannot be sped up from outside): ${cfg.jobWait.jobMs / 60_000}-minute jobs (${cfg.jobWait.queuedMs / 1000} s queued), all runs of all three modes side by side; rate limits off (${3 * r.runs} creates at once exceed 10 a minute). Calls include the create.`,
		`- Queue mode: PostgreSQL (Debian's package, scripts/n8n/postgres.ts) + Redis, n8n main (no production webhooks: N8N_DISABLE_PRODUCTION_MAIN_PROCESS) + \`n8n webhook\` + 2 workers at concurrency ${cfg.queue.workerConcurrency}. Callbacks go to the webhook process; rate limits off (500 jobs cannot be created in a minute at 10 a minute, and 500 confirmations are over 60 a minute). Latency is from the simulator's send time to the execution's stoppedAt.`,
		...r.notes.map((n) => `- ${n}`),
		'',
	];
	return lines.join('\n');
}
