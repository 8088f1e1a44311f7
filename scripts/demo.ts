/**
 * `npm run demo`: the example workflows (examples/*.json) run through n8n's engine (n8n-core's
 * WorkflowExecute, as in the tests) against local simulators of the service. No API key, no network:
 * the simulators play the service on 127.0.0.1, and a small local server plays n8n's webhook endpoint
 * for the job trigger. Prints what each workflow produced, stops everything, exits 0 (1 on any
 * failure). The parts are in scripts/demoParts.ts; they never wait for a key's minute
 * (scripts/demoPlan.ts).
 */
const started = Date.now();
const bold = (s: string): string => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string): string => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const say = (s = ''): void => console.log(s);

async function main(): Promise<void> {
	// Said before n8n's engine loads, which takes seconds on a busy machine.
	say(bold('Workspace Practice for n8n: demo'));
	say(
		dim(
			"Loading n8n's engine (n8n-core); the workflows run in it against simulators of the service on 127.0.0.1.",
		),
	);
	say();
	// n8n-core writes its config under N8N_USER_FOLDER when loaded; setupEnv keeps that in a temp folder.
	await import('../n8n-harness/setupEnv');
	const { DEMO_PARTS, runDemo } = await import('./demoParts');
	const { WebhookServer } = await import('../n8n-harness/webhookServer');
	const hooks = new WebhookServer();
	await hooks.start();
	let ok = false;
	try {
		const sent = await runDemo(hooks);
		// A part over its planned count could make a later one wait: say so (test/demo/demoPlan.test.ts fails on it).
		sent.forEach((n, i) => {
			if (n > DEMO_PARTS[i].requests)
				say(
					`Part ${i + 1} sent ${n} requests, planned ${DEMO_PARTS[i].requests} (scripts/demoParts.ts).`,
				);
		});
		ok = true;
	} catch (error) {
		console.error(`\nDemo failed: ${error instanceof Error ? error.message : String(error)}`);
	} finally {
		await hooks.close();
	}
	say(
		ok
			? `Done in ${Math.round((Date.now() - started) / 1000)} s. To run them yourself: in n8n, Workflows → Import from File, pick a file in examples/ (examples/README.md says what each does), or \`npm run editor\` opens n8n with all of them imported.`
			: 'Demo stopped.',
	);
	process.exit(ok ? 0 : 1);
}

void main();
