/**
 * `npm run bench:n8n`: the package in a real n8n (the pinned 2.x from the shared cache) against n8n's own
 * HTTP Request node, then load in queue mode (PostgreSQL + Redis, main + webhook process + 2 workers).
 * The simulator runs in a process of its own for every item. Writes `peer` and `queue` into
 * bench/results.json and bench/n8n/results.md; `--quick` runs small sizes and records nothing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

import { packPackage } from '../../scripts/n8n/pack';
import { VERSIONS } from '../../scripts/n8n/paths';
import { ensurePostgres } from '../../scripts/n8n/postgres';
import { ensureRedis } from '../../scripts/n8n/redis';
import { round } from '../stats';
import { benchConfig, burstProfile } from './config';
import { startN8n } from './instance';
import { load } from './measure';
import { summariseDir } from './profileSummary';
import { benchJobWait, benchPerItem, benchPerItemLimited, benchReturnAll } from './peer';
import {
	benchCallbacks,
	benchPollingWaits,
	type CallbackProfile,
	type CallbackTarget,
} from './queue';
import { markdown, type N8nBenchResults } from './report';

const REPO = resolve(__dirname, '..', '..');

function step(text: string): void {
	console.log(`[${new Date().toISOString().slice(11, 19)}] ${text}`);
}

/** With BENCH_N8N_CPU_PROF, once n8n has stopped and written its profiles: where the time went. */
function summariseProfiles(): void {
	const dir = process.env.BENCH_N8N_CPU_PROF;
	if (!dir) return;
	try {
		summariseDir(dir);
		step(`CPU profile summaries in ${join(dir, 'summary.json')}`);
	} catch (error) {
		// A summary is a reading aid: its failure must not lose the run's figures.
		console.warn(`profile summary failed: ${error instanceof Error ? error.message : error}`);
	}
}

async function main(): Promise<void> {
	const quick = process.argv.includes('--quick');
	const only = process.argv
		.find((a) => a.startsWith('--only='))
		?.slice('--only='.length)
		.split(',');
	// --only=<parts>: perItem, returnAll, limited, jobWait (regular mode); callbacks, callbacksPeer
	// (the same burst to n8n's Webhook node), callbacksBare (diagnosis: the same burst to the Job
	// Trigger with Authentication None and Confirm With API off, so no credential read and no request;
	// its wrong secrets start executions by design), callbacksRealistic, pollingWaits, callbacksLegacy
	// (queue; the last a diagnosis with another expression engine).
	// BENCH_N8N_CPU_PROF=<dir>: V8 CPU profiles of every n8n process, and after each n8n stops a
	// summary by owner of each callback burst's window (bench/n8n/profileSummary.ts; the webhook
	// process's on the console, every process's in <dir>/summary.json).
	const wants = (...parts: string[]): boolean => !only || parts.some((p) => only.includes(p));
	const cfg = benchConfig(quick);
	const started = performance.now();
	const loadAtStart = load();
	step(
		`bench:n8n${quick ? ' --quick' : ''}: n8n ${VERSIONS[2]}, ${cfg.runs} runs per figure, load ${loadAtStart.join(' ')}`,
	);
	const tarball = packPackage();

	const results: N8nBenchResults = {
		date: new Date().toISOString(),
		quick,
		n8nVersion: VERSIONS[2],
		machine: {
			cpus: os.cpus().length,
			cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
			loadAtStart,
		},
		runs: cfg.runs,
		peer: {},
		queue: {},
		notes: [],
		durationSeconds: 0,
	};

	if (wants('perItem', 'returnAll', 'limited', 'jobWait')) {
		step('regular mode: starting n8n');
		const bench = await startN8n(tarball);
		try {
			if (wants('perItem')) {
				step(`per item: ${cfg.perItem.items} items, ${cfg.perItem.latencyMs} ms latency`);
				results.peer.perItem = await benchPerItem(bench, cfg);
				step(
					`  node ${results.peer.perItem.nodeMs} ms vs HTTP Request ${results.peer.perItem.httpRequestMs} ms → ${results.peer.perItem.ratio}`,
				);
			}
			if (wants('returnAll')) {
				step(`return all: ${cfg.returnAll.rows} scenarios, ${cfg.returnAll.latencyMs} ms latency`);
				results.peer.returnAll = await benchReturnAll(bench, cfg);
				step(
					`  ${results.peer.returnAll.nodeRequests} vs ${results.peer.returnAll.httpRequestRequests} requests, ratio ${results.peer.returnAll.ratio}`,
				);
			}
			if (wants('limited')) {
				step(
					`per item with the deployed limits: ${cfg.limited.items} items, ${cfg.limited.timeScale === 1 ? 'real time, node at its default Batching' : `clock × ${cfg.limited.timeScale}, node pacing off`}`,
				);
				results.peer.limited = await benchPerItemLimited(bench, cfg);
				step(
					`  node ${results.peer.limited.node.itemsCompleted} done, ${results.peer.limited.node.rateLimited} × 429, ${results.peer.limited.node.ratioVsBound}× bound; HTTP Request ${results.peer.limited.httpRequest.itemsCompleted} done, ${results.peer.limited.httpRequest.rateLimited} × 429`,
				);
			}
			if (wants('jobWait')) {
				step(
					`job wait: ${cfg.jobWait.jobMs / 60_000}-minute jobs in real time, ${cfg.runs} runs of 3 modes side by side`,
				);
				results.peer.jobWait = await benchJobWait(bench, cfg);
				const jw = results.peer.jobWait;
				step(
					`  calls: By Polling ${jw.byPolling.calls}, Until Callback ${jw.untilCallback.calls}, Wait loop ${jw.httpRequestWaitLoop.calls}`,
				);
			}
		} finally {
			await bench.stop();
		}
	}

	if (
		wants(
			'callbacks',
			'callbacksPeer',
			'callbacksBare',
			'callbacksRealistic',
			'pollingWaits',
			'callbacksLegacy',
		)
	) {
		step('queue mode: Redis, PostgreSQL, main + webhook process + 2 workers');
		const redis = await ensureRedis();
		const postgres = await ensurePostgres();
		try {
			const bench = await startN8n(tarball, {
				redis,
				postgres,
				workerConcurrency: cfg.queue.workerConcurrency,
			});
			try {
				// The callback parts, in this order, on the same queue-mode n8n.
				const parts: Array<{
					part: 'callbacks' | 'callbacksPeer' | 'callbacksBare' | 'callbacksRealistic';
					what: string;
					profile: CallbackProfile;
					target: CallbackTarget;
				}> = [
					{
						part: 'callbacks',
						what: `callbacks: ${cfg.queue.callbacks} + ${cfg.queue.duplicates} duplicates + ${cfg.queue.wrongSecret} wrong secrets over ${cfg.queue.overMs / 1000} s`,
						profile: burstProfile(cfg),
						target: 'jobTrigger',
					},
					{
						part: 'callbacksPeer',
						what: "callbacks peer: the same burst to n8n's Webhook node (Header Auth)",
						profile: burstProfile(cfg),
						target: 'webhookNode',
					},
					{
						part: 'callbacksBare',
						what: 'callbacks bare (diagnosis): the same burst to the Job Trigger with Authentication None and Confirm With API off (wrong secrets start executions by design)',
						profile: burstProfile(cfg),
						target: 'jobTriggerBare',
					},
					{
						part: 'callbacksRealistic',
						what: `callbacks realistic: ${cfg.queue.realistic.callbacks} over ${cfg.queue.realistic.overMs / 1000} s + ${cfg.queue.realistic.duplicates} + ${cfg.queue.realistic.concurrentDuplicates} concurrent duplicates + ${cfg.queue.realistic.wrongSecret} wrong secrets`,
						profile: cfg.queue.realistic,
						target: 'jobTrigger',
					},
				];
				for (const { part, what, profile, target } of parts) {
					if (!wants(part)) continue;
					step(what);
					const cb = await benchCallbacks(bench, profile, target, part);
					results.queue[part] = cb;
					step(
						`  started ${cb.started}, lost ${cb.lost}, duplicated ${cb.duplicated} (${cb.concurrentDuplicated ?? 0} concurrent), rejected ${cb.rejected}, wrong-secret executions ${cb.wrongSecretExecutions}, p99 ${cb.p99Ms} ms`,
					);
				}
				if (wants('pollingWaits')) {
					step(
						`polling waits: ${cfg.queue.pollingWaits} at once, ${cfg.queue.pollingJobMs / 60_000}-minute jobs`,
					);
					results.queue.pollingWaits = await benchPollingWaits(bench, cfg);
					step(
						`  completed ${results.queue.pollingWaits.completed}/${cfg.queue.pollingWaits}, ${results.queue.pollingWaits.callsPerJob} calls per job`,
					);
				}
			} finally {
				await bench.stop();
				summariseProfiles();
			}
			if (wants('callbacksLegacy')) {
				// Diagnosis: n8n's default expression engine builds an isolated-vm isolate per webhook call.
				step('diagnosis: the callbacks again with N8N_EXPRESSION_ENGINE=legacy');
				const legacy = await startN8n(
					tarball,
					{ redis, postgres, workerConcurrency: cfg.queue.workerConcurrency },
					{ N8N_EXPRESSION_ENGINE: 'legacy' },
				);
				try {
					results.queue.callbacksLegacyEngine = await benchCallbacks(
						legacy,
						burstProfile(cfg),
						'jobTrigger',
						'callbacksLegacy',
					);
					const cb = results.queue.callbacksLegacyEngine;
					step(
						`  started ${cb.started}, lost ${cb.lost}, duplicated ${cb.duplicated}, rejected ${cb.rejected}, p99 ${cb.p99Ms} ms`,
					);
				} finally {
					await legacy.stop();
					summariseProfiles();
				}
			}
		} finally {
			await redis.stop();
			await postgres.stop();
		}
	}

	results.machine.loadAtEnd = load();
	results.durationSeconds = round((performance.now() - started) / 1000, 1);
	if (quick) {
		console.log(JSON.stringify(results, null, 2));
		console.log(markdown(results, cfg));
		console.log('(--quick: nothing recorded)');
		return;
	}
	record(results, cfg, Boolean(only));
}

/**
 * bench/n8n/results.json keeps every figure of the last full-size run of each part (--only=<parts>
 * replaces just those); bench/results.json gets the keys the issue names, bench/n8n/results.md the table.
 */
function record(
	results: N8nBenchResults,
	cfg: ReturnType<typeof benchConfig>,
	partial: boolean,
): void {
	const own = join(REPO, 'bench', 'n8n', 'results.json');
	let merged = results;
	if (partial && existsSync(own)) {
		const previous = JSON.parse(readFileSync(own, 'utf8')) as N8nBenchResults;
		merged = {
			...results,
			peer: { ...previous.peer, ...results.peer },
			queue: { ...previous.queue, ...results.queue },
			notes: [
				...previous.notes,
				`Partial re-run of ${results.date}: ${[...Object.keys(results.peer), ...Object.keys(results.queue)].join(', ')} (load ${results.machine.loadAtStart.join(' ')} → ${(results.machine.loadAtEnd ?? []).join(' ')}); the other figures are from ${previous.date}.`,
			],
		};
	}
	writeFileSync(own, `${JSON.stringify(merged, null, '\t')}\n`);
	const file = join(REPO, 'bench', 'results.json');
	const existing = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
	const { perItem, returnAll, jobWait, limited } = merged.peer;
	existing.peer = {
		perItemRatioVsHttpRequestNode: perItem?.ratio ?? null,
		returnAllRatioVsHttpRequestNode: returnAll?.ratio ?? null,
		returnAllRequests: returnAll?.nodeRequests ?? null,
		limited: limited
			? {
					rateLimitedAnswers: limited.node.rateLimited,
					itemsCompleted: limited.node.itemsCompleted,
					ratioVsBound: limited.node.ratioVsBound,
					timeScale: limited.timeScale,
				}
			: null,
		jobWaitCalls: jobWait
			? {
					byPolling: jobWait.byPolling.calls,
					untilCallback: jobWait.untilCallback.calls,
					httpRequestWaitLoop: jobWait.httpRequestWaitLoop.calls,
				}
			: null,
		detail: 'bench/n8n/results.json',
	};
	existing.queue = {
		callbacks: merged.queue.callbacks ?? null,
		pollingWaits: merged.queue.pollingWaits ?? null,
		callbacksLegacyEngine: merged.queue.callbacksLegacyEngine ?? null,
		callbacksPeer: merged.queue.callbacksPeer ?? null,
		callbacksRealistic: merged.queue.callbacksRealistic ?? null,
	};
	writeFileSync(file, `${JSON.stringify(existing, null, '\t')}\n`);
	const md = markdown(merged, cfg);
	writeFileSync(join(REPO, 'bench', 'n8n', 'results.md'), md);
	console.log(md);
	step(
		`wrote bench/results.json (peer, queue), bench/n8n/results.json and results.md in ${results.durationSeconds} s`,
	);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? (error.stack ?? error.message) : error);
	process.exitCode = 1;
});
