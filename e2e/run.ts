/**
 * `npm run test:e2e`: the package in a real n8n. Packs the package, installs it into a fresh n8n user
 * folder as a community package, starts the pinned n8n 2.x on 127.0.0.1 against the simulator (in this
 * process), and checks credential, every operation, both triggers, the waiting execution, the tool
 * listing, an AI Agent calling the tool (scripted OpenAI-compatible model), MCP clients calling every
 * operation through the MCP Server Trigger, and the AI examples. Then the same in queue mode as n8n
 * documents it (PostgreSQL + Redis, main + 2 webhook processes behind a hash-routing proxy + 2 workers) and, with --v1, on the last n8n 1.x.
 *
 * Flags: --no-queue, --only-queue, --v1, --only-v1, --keep (keep n8n's folder and logs), --steps=<a,b> (subset:
 * credential, listing, operations, forms, editor, job-trigger, wait, polling, practice, members,
 * create-tool, agent, mcp, ai-examples, kb-sync, loop-examples, templates, skill-tiers, job-repeats, day-budget,
 * durable (or one leg: durable-legacy, durable-scheduler), slow-outcomes (or slow-outcomes-legacy,
 * slow-outcomes-scheduler)).
 * Prints one line per checked step and ends with "N passed, N failed"; exit code 1 on any failure.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8nApi } from '../scripts/n8n/api';
import { installIntoUserFolder, packPackage } from '../scripts/n8n/pack';
import {
	checkNativeModules,
	ensureInstalled,
	installFor,
	REPO_ROOT,
	VERSIONS,
	type N8nMajor,
} from '../scripts/n8n/paths';
import { ensurePostgres, type PostgresHandle } from '../scripts/n8n/postgres';
import { ensureRedis, type RedisHandle } from '../scripts/n8n/redis';
import { N8nServer } from '../scripts/n8n/server';
import { startSimulator, type RunningSimulator } from '../simulator';
import { n8nFilesFolder, type SuiteContext } from './context';
import { Report, type StepOutcome } from './harness';
import { packageNodeTypes } from './packageInfo';
import { agentSteps } from './steps/agent';
import { aiExampleSteps } from './steps/aiExamples';
import { credentialSteps } from './steps/credential';
import { dayBudgetSteps } from './steps/dayBudget';
import { durableSteps } from './steps/durable';
import { editorSteps } from './steps/editor';
import { formSteps } from './steps/forms';
import { jobRepeatSteps } from './steps/jobRepeats';
import { jobTriggerSteps } from './steps/jobTrigger';
import { knowledgeHubSyncSteps } from './steps/knowledgeHubSync';
import { operationSteps } from './steps/operations';
import { pollingSteps } from './steps/polling';
import { practiceSteps } from './steps/practice';
import { queueSteps } from './steps/queue';
import { listingSteps } from './steps/listing';
import { loopExampleSteps } from './steps/loopExamples';
import { templateSteps } from './steps/templates';
import { skillTierSteps } from './steps/skillTiers';
import { slowOutcomeSteps } from './steps/slowOutcomes';
import { mcpSteps } from './steps/mcp';
import { memberSteps } from './steps/members';
import { createToolSteps } from './steps/createTool';
import { untilCallbackSteps } from './steps/untilCallback';
import { recordTotals } from '../test/support/totals';

interface Mode {
	major: N8nMajor;
	queue: boolean;
}

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(`--${name}`);
const stepsArg = args.find((a) => a.startsWith('--steps='))?.slice('--steps='.length);
const wanted = stepsArg ? new Set(stepsArg.split(',')) : undefined;
const runs = (group: string): boolean => !wanted || wanted.has(group);

function modes(): Mode[] {
	if (flag('only-v1')) return [{ major: 1, queue: false }];
	if (flag('only-queue')) return [{ major: 2, queue: true }];
	const list: Mode[] = [{ major: 2, queue: false }];
	if (!flag('no-queue')) list.push({ major: 2, queue: true });
	if (flag('v1')) list.push({ major: 1, queue: false });
	return list;
}

async function runMode(
	mode: Mode,
	tarball: string,
	packageDir: string,
	nodeTypes: string[],
	redis: () => Promise<RedisHandle>,
	postgres: () => Promise<PostgresHandle>,
): Promise<StepOutcome[]> {
	const label = `[n8n ${VERSIONS[mode.major]}${mode.queue ? ' queue' : ''}]`;
	let n8n: N8nServer | undefined;
	const report = new Report(label, () => n8n?.logTail() ?? '(n8n is not running)');
	let sim: RunningSimulator | undefined;
	try {
		let ready = await report.step(
			`setup: n8n ${VERSIONS[mode.major]} installed (cached outside the repository)`,
			async () => {
				const install = ensureInstalled(mode.major);
				return install.dir;
			},
		);
		// What a fresh machine got wrong (issue 20): n8n installed but its database driver never built.
		if (ready) {
			ready = await report.step(
				`setup: n8n ${VERSIONS[mode.major]}'s native modules load under the Node that runs it`,
				async () =>
					checkNativeModules(installFor(mode.major))
						.replace(/\[verify-native\] /g, '')
						.replace(/\n/g, '; '),
			);
		}
		let redisHandle: RedisHandle | undefined;
		let database:
			| { host: string; port: number; database: string; user: string; password: string }
			| undefined;
		if (ready && mode.queue) {
			ready = await report.step('setup: Redis for queue mode', async () => {
				redisHandle = await redis();
				return `${redisHandle.host}:${redisHandle.port}${redisHandle.started ? ' (started by the suite)' : ''}`;
			});
		}
		if (ready && mode.queue) {
			ready = await report.step(
				'setup: PostgreSQL for queue mode (n8n supports no SQLite there)',
				async () => {
					const pg = await postgres();
					database = {
						host: pg.host,
						port: pg.port,
						user: pg.user,
						password: pg.password,
						database: pg.createDatabase(`n8n_e2e_${Date.now()}`),
					};
					return `${pg.host}:${pg.port}/${database.database}`;
				},
			);
		}
		if (ready) {
			ready = await report.step(
				'setup: package installed into the user folder, n8n started on 127.0.0.1',
				async () => {
					// A short job so waiting steps finish in seconds; callbacks fire as in the real service.
					sim = await startSimulator({ jobTimings: { queuedMs: 300, processingMs: 1500 } });
					const userFolder = mkdtempSync(join(tmpdir(), 'wsp-e2e-n8n-'));
					installIntoUserFolder(tarball, userFolder);
					n8n = await N8nServer.start({
						install: ensureInstalled(mode.major),
						userFolder,
						removeFolder: true,
						// Read/Write Files from Disk work in a folder of the run's own (kb-sync), not ~/.n8n-files.
						env: { N8N_RESTRICT_FILE_ACCESS_TO: n8nFilesFolder(userFolder) },
						queue:
							redisHandle && database
								? {
										redisHost: redisHandle.host,
										redisPort: redisHandle.port,
										postgres: database,
										// Two, behind a hash-routing proxy: how n8n scales webhooks (docs/batching.md).
										webhookProcesses: 2,
									}
								: undefined,
					});
					const queueNote = mode.queue
						? ` (main + 2 webhook processes behind ${n8n.webhookBaseUrl} + 2 workers)`
						: '';
					return `${n8n.baseUrl}${queueNote}, folder ${userFolder}`;
				},
			);
		}
		let api: N8nApi | undefined;
		if (ready && n8n) {
			const server = n8n;
			ready = await report.step('setup: owner, login and public API key', async () => {
				api = new N8nApi(server.baseUrl, mode.major, server.webhookBaseUrl);
				await api.bootstrap();
				return OWNER_NOTE;
			});
		}
		if (!ready || !n8n || !api || !sim) return report.outcomes;

		const ctx: SuiteContext = {
			n8n,
			api,
			sim,
			fx: sim.control.fixtures(),
			report,
			packageDir,
			packageNodeTypes: nodeTypes,
			major: mode.major,
			queueMode: mode.queue,
		};
		await credentialSteps(ctx);
		// The polling trigger needs two of n8n's minute ticks: it runs alongside the other steps.
		const polling = runs('polling') ? pollingSteps(ctx) : Promise.resolve();
		// Practice Results needs four: it runs alongside too, on a simulator of its own.
		const practice = runs('practice') ? practiceSteps(ctx) : Promise.resolve();
		// The playbook example waits for n8n's polls too.
		const loops = runs('loop-examples') ? loopExampleSteps(ctx) : Promise.resolve();
		const tiers = runs('skill-tiers') ? skillTierSteps(ctx) : Promise.resolve();
		// The templates no other step runs (the watcher among them waits for n8n's polls too).
		const templates = runs('templates') ? templateSteps(ctx) : Promise.resolve();
		if (runs('listing')) await listingSteps(ctx);
		if (runs('operations')) await operationSteps(ctx);
		if (runs('forms')) await formSteps(ctx);
		if (runs('editor')) await editorSteps(ctx);
		if (runs('job-trigger')) await jobTriggerSteps(ctx);
		if (runs('wait')) await untilCallbackSteps(ctx);
		if (runs('agent')) await agentSteps(ctx);
		if (runs('mcp')) await mcpSteps(ctx);
		if (runs('ai-examples')) await aiExampleSteps(ctx);
		if (runs('members')) await memberSteps(ctx);
		if (runs('create-tool')) await createToolSteps(ctx);
		if (runs('kb-sync')) await knowledgeHubSyncSteps(ctx);
		if (runs('day-budget')) await dayBudgetSteps(ctx);
		await polling;
		await practice;
		await loops;
		await tiers;
		await templates;
		// Last: it restarts n8n, which would cut steps running alongside.
		if (runs('job-repeats')) await jobRepeatSteps(ctx);
		// After that: the trigger under a slow service, legacy poller then n8n restarted with the durable
		// scheduler on (it stays on until this mode's n8n stops).
		const legacyLeg = runs('durable') || runs('durable-legacy');
		const schedulerLeg = runs('durable') || runs('durable-scheduler');
		if (legacyLeg || schedulerLeg)
			await durableSteps(ctx, { legacy: legacyLeg, scheduler: schedulerLeg });
		// Practice Results' outcomes at 12 s a request, legacy poller then the durable scheduler (with its
		// default timeout: it stays on until this mode's n8n stops).
		const slowLegacy = runs('slow-outcomes') || runs('slow-outcomes-legacy');
		const slowScheduler = runs('slow-outcomes') || runs('slow-outcomes-scheduler');
		if (slowLegacy || slowScheduler)
			await slowOutcomeSteps(ctx, { legacy: slowLegacy, scheduler: slowScheduler });
		await queueSteps(ctx);
		return report.outcomes;
	} finally {
		const keep = flag('keep') || report.failed > 0;
		if (n8n) {
			await n8n.stop({ keepFolder: keep });
			if (keep) console.log(`${label} n8n folder and logs kept in ${n8n.userFolder}`);
		}
		await sim?.close();
	}
}

const OWNER_NOTE = 'owner set up, API key made';

async function main(): Promise<void> {
	const started = Date.now();
	console.log(`e2e: packing ${REPO_ROOT}`);
	const tarball = packPackage();
	const packageDir = join(REPO_ROOT, '.e2e', 'package');
	const nodeTypes = await packageNodeTypes(packageDir);
	console.log(`e2e: ${tarball} (${nodeTypes.join(', ')})`);
	let redis: Promise<RedisHandle> | undefined;
	const getRedis = (): Promise<RedisHandle> => (redis ??= ensureRedis());
	let postgres: Promise<PostgresHandle> | undefined;
	const getPostgres = (): Promise<PostgresHandle> => (postgres ??= ensurePostgres());
	const outcomes: StepOutcome[] = [];
	for (const mode of modes())
		outcomes.push(...(await runMode(mode, tarball, packageDir, nodeTypes, getRedis, getPostgres)));
	if (redis) await (await redis).stop();
	if (postgres) await (await postgres).stop();
	const failed = outcomes.filter((o) => !o.ok);
	const passed = outcomes.filter((o) => o.ok && !o.skipped).length;
	const skipped = outcomes.filter((o) => o.skipped).length;
	if (failed.length) {
		console.log('\nFailed steps:');
		for (const f of failed) console.log(`  - ${f.name}: ${(f.detail ?? '').split('\n')[0]}`);
	}
	const seconds = Math.round((Date.now() - started) / 1000);
	console.log(`\ne2e took ${seconds} s`);
	recordTotals('e2e', passed, failed.length, skipped);
	process.exit(failed.length ? 1 : 0);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? (error.stack ?? error.message) : error);
	recordTotals('e2e', 0, 1, 0);
	process.exit(1);
});
