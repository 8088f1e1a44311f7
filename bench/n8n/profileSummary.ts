/**
 * Who owns an n8n process's CPU time: splits a V8 CPU profile (`--cpu-prof`, what
 * `BENCH_N8N_CPU_PROF=<dir> npm run bench:n8n` writes per process) by owner, and gives the inclusive
 * time of a few named frames.
 *
 *   npx tsx bench/n8n/profileSummary.ts <file.cpuprofile> [--window=<label>] [--from=<µs> --to=<µs>]
 *     [--deliveries=<n>] [--json]
 *
 * Busy time is the profile's sample time without `(idle)`. A sample's owner is the innermost frame of
 * its stack that belongs to a known party; Node's own code, V8 builtins and native functions (no
 * package path) are charged to their caller, so `JSON.parse` called by body-parser counts as body
 * parsing and `node:crypto` called by n8n's cipher as credential handling. A sample with no such caller
 * counts as Node internals. The "self" column charges every sample to its innermost frame only.
 *
 * The profile covers the process's whole life (start-up included). The bench notes each measured
 * window (monotonic µs, the clock V8's profiler uses) in `<dir>/windows.json`; the summary keeps the
 * samples of a window only, and divides by the window's deliveries for "ms per delivery".
 *
 * What busy time is: the main thread's wall time not spent idle in the event loop, as the sampler sees
 * it. That is what limits how many requests the process serves, but it is not CPU time: it includes
 * time blocked in synchronous native calls (isolated-vm's, which wait while an isolate's own thread
 * works) and time the thread was ready but not scheduled on a loaded machine. The profile sees the
 * main thread only; the bench also notes the CPU seconds of each thread group from /proc (isolated-vm's
 * threads, V8's GC and compiler helpers, the profiler's own thread), and the table prints them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import { round } from '../stats';

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
	columnNumber: number;
}

interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	children?: number[];
}

/** The JSON V8 writes for `--cpu-prof`. */
export interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

/** A measured stretch of a bench run, as written to `<BENCH_N8N_CPU_PROF>/windows.json`. */
export interface ProfileWindow {
	label: string;
	/** process.hrtime in µs (CLOCK_MONOTONIC, shared by every process on the machine). */
	fromUs: number;
	toUs: number;
	/** Requests the receiver got in the window (first deliveries, repeats and wrong secrets). */
	deliveries?: number;
	/** CPU seconds per n8n process in the window, from /proc. */
	cpuSeconds?: Record<string, number>;
	/** The same per thread group of each process (measure.ts threadCpuSeconds). */
	threadCpuSeconds?: Record<string, Record<string, number>>;
}

export const OWNERS = [
	'expression runtime (isolated-vm)',
	'credential handling',
	'this package',
	'database client (pg, typeorm)',
	'queue client (Bull, ioredis)',
	'HTTP server + body parsing',
	'HTTP client (request helper, axios)',
	'GC',
	'(program)',
	'other n8n',
	'other libraries',
	'Node internals',
] as const;
export type Owner = (typeof OWNERS)[number];

/** This package as n8n installs it: `<user folder>/.n8n/nodes/node_modules/<name>/dist/...`. */
const PACKAGE_NAME = (
	JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
		name: string;
	}
).name;

/** Frames whose inclusive time is reported: a frame counts once per sample however deep it recurs. */
const NAMED_FRAMES: Array<{ label: string; match: (f: CallFrame, pkg?: string) => boolean }> = [
	{
		label: "package's webhook()",
		match: (f, pkg) => f.functionName === 'webhook' && pkg === PACKAGE_NAME,
	},
	{
		label: 'n8n executeWebhook (webhook phase)',
		match: (f, pkg) => f.functionName === 'executeWebhook' && pkg === 'n8n',
	},
	{
		// For a start node of typeVersion 1 n8n evaluates `$parameter.options.binaryData` here, in the
		// webhook phase's isolate; from version 2 on it does not.
		label: 'n8n parseRequestBody',
		match: (f, pkg) => f.functionName === 'parseRequestBody' && pkg === 'n8n',
	},
	{
		label: 'credentials-helper getDecrypted',
		match: (f) => f.functionName === 'getDecrypted' && f.url.endsWith('credentials-helper.js'),
	},
	{
		label: 'credentials-helper applyDefaultsAndOverwrites',
		match: (f) =>
			f.functionName === 'applyDefaultsAndOverwrites' && f.url.endsWith('credentials-helper.js'),
	},
	{
		label: 'Expression acquireIsolate / releaseIsolate',
		match: (f, pkg) =>
			(f.functionName === 'acquireIsolate' || f.functionName === 'releaseIsolate') &&
			pkg === 'n8n-workflow',
	},
	{
		label: 'isolate bridge initialize (create)',
		match: (f) =>
			(f.functionName === 'initialize' || f.functionName === 'initializeSync') &&
			f.url.endsWith('isolated-vm-bridge.js'),
	},
	{
		label: 'isolate bridge dispose',
		match: (f) => f.functionName === 'dispose' && f.url.endsWith('isolated-vm-bridge.js'),
	},
	{
		label: 'httpRequestWithAuthentication',
		match: (f, pkg) => f.functionName === 'httpRequestWithAuthentication' && pkg === 'n8n-core',
	},
	{
		label: 'saveStaticData',
		match: (f, pkg) => f.functionName === 'saveStaticData' && pkg === 'n8n',
	},
];

/** The package a script belongs to (the part after its last node_modules/), and the path inside it. */
function packageOf(url: string): { pkg: string; rest: string } | undefined {
	const at = url.lastIndexOf('/node_modules/');
	if (at < 0) return undefined;
	const parts = url.slice(at + '/node_modules/'.length).split('/');
	const scoped = parts[0].startsWith('@');
	const pkg = scoped ? `${parts[0]}/${parts[1]}` : parts[0];
	return { pkg, rest: parts.slice(scoped ? 2 : 1).join('/') };
}

const DATABASE =
	/^(pg|pg-pool|pg-protocol|pg-types|pg-connection-string|postgres-.*|typeorm|@n8n\/typeorm|@n8n\/db)$/;
const QUEUE = /^(bull|ioredis|redis-parser|redis-errors|@ioredis\/.*)$/;
const HTTP_SERVER =
	/^(express|body-parser|raw-body|iconv-lite|finalhandler|router|send|serve-static|on-finished|type-is|content-type|qs|cookie-parser|compression|helmet|cors|accepts|negotiator|mime-types|xml2js|express-.*|path-to-regexp)$/;
const HTTP_CLIENT =
	/^(axios|follow-redirects|form-data|proxy-from-env|http-proxy-agent|https-proxy-agent|agent-base)$/;
const N8N = /^(n8n|n8n-core|n8n-workflow|@n8n\/.*)$/;

/**
 * The owner of a frame, or undefined for Node's own code, V8 builtins and native functions (charged to
 * their caller). Paths are n8n 2.x's: its packages live under the install's node_modules, this
 * package under the user folder's `.n8n/nodes/node_modules`.
 */
export function ownerOf(frame: CallFrame): Owner | undefined {
	const { functionName, url } = frame;
	if (functionName === '(garbage collector)') return 'GC';
	if (functionName === '(program)') return '(program)';
	const where = packageOf(url);
	if (!where) return undefined;
	const { pkg, rest } = where;
	if (pkg === PACKAGE_NAME) return 'this package';
	if (
		pkg === 'isolated-vm' ||
		pkg === '@n8n/expression-runtime' ||
		pkg === '@n8n/tournament' ||
		(pkg === 'n8n-workflow' && /expression/i.test(rest))
	)
		return 'expression runtime (isolated-vm)';
	if (
		(pkg === 'n8n' && /credentials/.test(rest)) ||
		(pkg === 'n8n-core' && /credentials|encryption|cipher/.test(rest))
	)
		return 'credential handling';
	if (DATABASE.test(pkg)) return 'database client (pg, typeorm)';
	if (QUEUE.test(pkg)) return 'queue client (Bull, ioredis)';
	if (HTTP_SERVER.test(pkg) || (pkg === 'n8n' && rest.startsWith('dist/middlewares/')))
		return 'HTTP server + body parsing';
	if (HTTP_CLIENT.test(pkg) || (pkg === 'n8n-core' && /request-helper/.test(rest)))
		return 'HTTP client (request helper, axios)';
	if (N8N.test(pkg)) return 'other n8n';
	return 'other libraries';
}

export interface ProfileSummary {
	file: string;
	window?: ProfileWindow;
	/** Milliseconds of samples in the window, and of those not idle. */
	sampledMs: number;
	busyMs: number;
	deliveries?: number;
	/** The process's CPU seconds in the window from /proc (all threads), when the bench noted them. */
	processCpuSeconds?: number;
	/** Its CPU seconds per thread group in the window (the profile covers `main thread` only). */
	threadCpuSeconds?: Record<string, number>;
	/** By owner: ms charged to the innermost known caller, its share of busy time, ms per delivery. */
	owners: Array<{
		owner: Owner;
		ms: number;
		percent: number;
		selfMs: number;
		msPerDelivery?: number;
	}>;
	/** Inclusive ms of named frames. */
	frames: Array<{ frame: string; ms: number; percent: number; msPerDelivery?: number }>;
}

export function summarise(
	profile: CpuProfile,
	options: {
		file?: string;
		fromUs?: number;
		toUs?: number;
		window?: ProfileWindow;
		processName?: string;
	} = {},
): ProfileSummary {
	const byId = new Map<number, ProfileNode>();
	const parent = new Map<number, number>();
	for (const node of profile.nodes) {
		byId.set(node.id, node);
		for (const child of node.children ?? []) parent.set(child, node.id);
	}
	// Owner with callers walked (memoised: nodes share their parents' answer), and the leaf's own.
	const owner = new Map<number, Owner>();
	const ownerWalked = (id: number): Owner => {
		const known = owner.get(id);
		if (known) return known;
		const node = byId.get(id);
		const direct = node ? ownerOf(node.callFrame) : undefined;
		const up = parent.get(id);
		const result = direct ?? (up === undefined ? 'Node internals' : ownerWalked(up));
		owner.set(id, result);
		return result;
	};
	const framesOf = new Map<number, Set<number>>();
	const namedFrames = (id: number): Set<number> => {
		const known = framesOf.get(id);
		if (known) return known;
		const up = parent.get(id);
		const set = new Set(up === undefined ? [] : namedFrames(up));
		const frame = byId.get(id)?.callFrame;
		if (frame) {
			const pkg = packageOf(frame.url)?.pkg;
			NAMED_FRAMES.forEach((named, i) => {
				if (named.match(frame, pkg)) set.add(i);
			});
		}
		framesOf.set(id, set);
		return set;
	};

	const from = options.window?.fromUs ?? options.fromUs ?? -Infinity;
	const to = options.window?.toUs ?? options.toUs ?? Infinity;
	const ownerUs = new Map<Owner, number>();
	const selfUs = new Map<Owner, number>();
	const frameUs = NAMED_FRAMES.map(() => 0);
	let sampledUs = 0;
	let busyUs = 0;
	let t = profile.startTime;
	const { samples, timeDeltas } = profile;
	for (let i = 0; i < samples.length; i++) {
		t += timeDeltas[i];
		// A sample stands for the time until the next one (as Chrome DevTools counts it).
		const weight = i + 1 < samples.length ? Math.max(0, timeDeltas[i + 1]) : 0;
		if (t < from || t >= to) continue;
		sampledUs += weight;
		const node = byId.get(samples[i]);
		if (!node || node.callFrame.functionName === '(idle)') continue;
		busyUs += weight;
		const o = ownerWalked(node.id);
		ownerUs.set(o, (ownerUs.get(o) ?? 0) + weight);
		const self = ownerOf(node.callFrame) ?? 'Node internals';
		selfUs.set(self, (selfUs.get(self) ?? 0) + weight);
		for (const f of namedFrames(node.id)) frameUs[f] += weight;
	}
	const deliveries = options.window?.deliveries;
	const perDelivery = (us: number): number | undefined =>
		deliveries ? round(us / 1000 / deliveries, 2) : undefined;
	const percent = (us: number): number => (busyUs ? round((100 * us) / busyUs, 1) : 0);
	const threads =
		options.processName !== undefined
			? options.window?.threadCpuSeconds?.[options.processName]
			: undefined;
	const processCpuSeconds =
		options.processName !== undefined
			? options.window?.cpuSeconds?.[options.processName]
			: undefined;
	return {
		file: options.file ?? '',
		...(options.window ? { window: options.window } : {}),
		sampledMs: round(sampledUs / 1000, 0),
		busyMs: round(busyUs / 1000, 0),
		...(deliveries ? { deliveries } : {}),
		...(processCpuSeconds !== undefined ? { processCpuSeconds } : {}),
		...(threads ? { threadCpuSeconds: threads } : {}),
		owners: OWNERS.map((o) => ({
			owner: o,
			ms: round((ownerUs.get(o) ?? 0) / 1000, 0),
			percent: percent(ownerUs.get(o) ?? 0),
			selfMs: round((selfUs.get(o) ?? 0) / 1000, 0),
			msPerDelivery: perDelivery(ownerUs.get(o) ?? 0),
		})).filter((row) => row.ms > 0 || row.selfMs > 0),
		frames: NAMED_FRAMES.map((named, i) => ({
			frame: named.label,
			ms: round(frameUs[i] / 1000, 0),
			percent: percent(frameUs[i]),
			msPerDelivery: perDelivery(frameUs[i]),
		})),
	};
}

export function table(summary: ProfileSummary): string {
	const w = summary.window;
	const d = summary.deliveries;
	const threads = Object.entries(summary.threadCpuSeconds ?? {})
		.filter(([, sec]) => sec > 0)
		.sort((a, b) => b[1] - a[1])
		.map(
			([name, sec]) =>
				`${name} ${sec} s${d ? ` (${round((sec * 1000) / d, 1)} ms per delivery)` : ''}`,
		);
	const head = [
		`${summary.file}${w ? ` — window "${w.label}" (${round((w.toUs - w.fromUs) / 1e6, 1)} s)` : ''}`,
		`main thread busy (wall time, not idle) ${summary.busyMs} ms of ${summary.sampledMs} ms sampled${d ? `; ${d} deliveries → ${round(summary.busyMs / d, 1)} busy ms each` : ''}`,
		...(summary.processCpuSeconds !== undefined
			? [
					`the process used ${summary.processCpuSeconds} CPU s in the window${d ? ` (${round((summary.processCpuSeconds * 1000) / d, 1)} ms per delivery)` : ''}${threads.length ? `; by thread: ${threads.join(', ')}` : ''}`,
				]
			: []),
		'',
		'| Owner (main thread) | ms | % of busy | self ms | ms per delivery |',
		'|---|---:|---:|---:|---:|',
		...summary.owners.map(
			(o) => `| ${o.owner} | ${o.ms} | ${o.percent} | ${o.selfMs} | ${o.msPerDelivery ?? '-'} |`,
		),
		'',
		'| Frame (inclusive) | ms | % of busy | ms per delivery |',
		'|---|---:|---:|---:|',
		...summary.frames.map(
			(f) => `| ${f.frame} | ${f.ms} | ${f.percent} | ${f.msPerDelivery ?? '-'} |`,
		),
	];
	return head.join('\n');
}

/** The windows the bench noted beside the profiles (`<dir>/windows.json`, the dir above each process's). */
export function windowsFor(profileFile: string): ProfileWindow[] {
	const file = join(dirname(dirname(resolve(profileFile))), 'windows.json');
	return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ProfileWindow[]) : [];
}

/**
 * The main-thread profiles a process wrote into `<dir>/<process>/`, oldest first. Node names them
 * `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile` and profiles every thread; n8n's worker threads
 * (thread ≥ 1) do next to nothing here.
 */
export function mainThreadProfiles(dir: string, processName: string): string[] {
	const folder = join(dir, processName);
	if (!existsSync(folder)) return [];
	return readdirSync(folder)
		.filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
		.map((f) => join(folder, f))
		.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

/** Appends a measured window to `<BENCH_N8N_CPU_PROF>/windows.json` (nothing when not profiling). */
export function noteProfileWindow(window: ProfileWindow): void {
	const dir = process.env.BENCH_N8N_CPU_PROF;
	if (!dir) return;
	mkdirSync(dir, { recursive: true });
	const file = join(dir, 'windows.json');
	const windows = existsSync(file)
		? (JSON.parse(readFileSync(file, 'utf8')) as ProfileWindow[])
		: [];
	writeFileSync(file, `${JSON.stringify([...windows, window], null, '\t')}\n`);
}

/** Now on the monotonic clock V8's profiler stamps samples with, in µs. */
export function monotonicUs(): number {
	return Number(process.hrtime.bigint() / 1000n);
}

/**
 * After n8n has stopped (profiles are written at exit): every noted window of every process's
 * profiles, as tables for `processes` on the console and all of them in `<dir>/summary.json`.
 */
export function summariseDir(dir: string, print: string[] = ['webhook']): ProfileSummary[] {
	const all: ProfileSummary[] = [];
	const names = existsSync(dir)
		? readdirSync(dir).filter((f) => statSync(join(dir, f)).isDirectory())
		: [];
	for (const name of names) {
		for (const file of mainThreadProfiles(dir, name)) {
			const summaries = summariseFile(file).filter((s) => s.window);
			for (const s of summaries) if (print.includes(name)) console.log(`\n${name}: ${table(s)}`);
			all.push(...summaries);
		}
	}
	if (print.some((name) => !names.includes(name)))
		console.warn(
			`no CPU profile from ${print.filter((n) => !names.includes(n)).join(', ')} in ${dir}`,
		);
	writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(all, null, '\t')}\n`);
	return all;
}

/**
 * One summary per noted window the profile covers (the whole profile when none); the process name is
 * the profile's folder (`webhook`, `worker`, `n8n`).
 */
export function summariseFile(
	file: string,
	select: { label?: string; fromUs?: number; toUs?: number; deliveries?: number } = {},
): ProfileSummary[] {
	const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
	const processName = basename(dirname(resolve(file)));
	if (select.fromUs !== undefined || select.toUs !== undefined) {
		const window: ProfileWindow = {
			label: 'given',
			fromUs: select.fromUs ?? profile.startTime,
			toUs: select.toUs ?? profile.endTime,
			deliveries: select.deliveries,
		};
		return [summarise(profile, { file, window, processName })];
	}
	const windows = windowsFor(file).filter(
		(w) =>
			(select.label === undefined || w.label === select.label) &&
			w.fromUs < profile.endTime &&
			w.toUs > profile.startTime,
	);
	if (!windows.length) {
		const whole: ProfileWindow | undefined = select.deliveries
			? {
					label: 'whole profile',
					fromUs: profile.startTime,
					toUs: profile.endTime,
					deliveries: select.deliveries,
				}
			: undefined;
		return [summarise(profile, { file, window: whole, processName })];
	}
	return windows.map((window) =>
		summarise(profile, {
			file,
			window: select.deliveries ? { ...window, deliveries: select.deliveries } : window,
			processName,
		}),
	);
}

function main(): void {
	const args = process.argv.slice(2);
	const file = args.find((a) => !a.startsWith('--'));
	const option = (name: string): string | undefined =>
		args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
	const number = (name: string): number | undefined => {
		const value = option(name);
		return value === undefined ? undefined : Number(value);
	};
	if (!file) {
		console.error(
			'usage: npx tsx bench/n8n/profileSummary.ts <file.cpuprofile> [--window=<label>] [--from=<µs> --to=<µs>] [--deliveries=<n>] [--json]',
		);
		process.exitCode = 2;
		return;
	}
	const summaries = summariseFile(file, {
		label: option('window'),
		fromUs: number('from'),
		toUs: number('to'),
		deliveries: number('deliveries'),
	});
	if (!args.includes('--json')) for (const s of summaries) console.log(`${table(s)}\n`);
	console.log(JSON.stringify(summaries, null, 2));
}

if (require.main === module) main();
