/**
 * A ready-to-click n8n: the pinned n8n with this package installed as a community package, an owner,
 * the simulator running in this process, a credential for it, and the example workflows imported (the
 * AI examples with a placeholder OpenAI credential to fill in and an MCP Bearer token).
 * Used by `npm run editor` and `npm run screenshots`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type RunningSimulator } from '../../simulator';
import { N8nApi, type WorkflowJson } from './api';
import type { EditorState } from './editorFolder';
import { installIntoUserFolder, packPackage } from './pack';
import { ensureInstalled, REPO_ROOT } from './paths';
import { freePort, N8nServer } from './server';
import { addThisWeek } from './thisWeek';

export interface ReadyInstance {
	n8n: N8nServer;
	api: N8nApi;
	sim: RunningSimulator;
	/** Imported example workflows by file name. */
	workflows: Record<string, string>;
	credentialId: string;
	/** What a later start on the same user folder reuses (see editorFolder.ts). */
	state: EditorState;
	stop(): Promise<void>;
}

export interface ReadyOptions {
	/**
	 * A user folder kept between starts (`npm run editor`), with what its last start made; without one
	 * a temp folder is used and removed on stop, so nothing stays in the system temp folder.
	 */
	keep?: { userFolder: string; state?: EditorState };
}

interface NodeJson {
	credentials?: Record<string, { id: string; name: string }>;
}

async function portNear(preferred: number): Promise<number> {
	const probe = await fetch(`http://127.0.0.1:${preferred}/`, {
		signal: AbortSignal.timeout(500),
	}).then(
		() => true,
		() => false,
	);
	return probe ? await freePort() : preferred;
}

export async function startReadyInstance(
	log: (line: string) => void = () => undefined,
	options: ReadyOptions = {},
): Promise<ReadyInstance> {
	log('Installing n8n if needed (cached after the first time)…');
	const install = ensureInstalled(2);
	log('Packing this package…');
	const tarball = packPackage();
	const kept = options.keep;
	const userFolder = kept?.userFolder ?? mkdtempSync(join(tmpdir(), 'wsp-editor-'));
	installIntoUserFolder(tarball, userFolder);
	const previous = kept?.state;
	// The port of the last start, so the credential's Base URL still points at the simulator.
	const sim = await startSimulator({ port: await portNear(previous?.simPort ?? 5679) });
	// The seed's records are months old on the real clock: a week of practice ending now.
	addThisWeek(sim);
	log(`Simulator on ${sim.baseUrl}; starting n8n ${install.version}…`);
	const n8n = await N8nServer.start({
		install,
		userFolder,
		removeFolder: kept === undefined,
		port: await portNear(5678),
	}).catch(async (error: unknown) => {
		await sim.close();
		throw error;
	});
	try {
		const api = new N8nApi(n8n.baseUrl);
		await api.bootstrap();
		const refs = previous?.credentials ?? (await createCredentials(api, sim));
		if (previous && previous.simPort !== sim.port) {
			// The old port was taken: point the kept credential at the simulator's new address.
			await api
				.updateCredential(refs.workspacePracticeApi, 'workspacePracticeApi', {
					baseUrl: sim.baseUrl,
					apiKey: sim.apiKey,
				})
				.catch((error: unknown) =>
					log(
						`Could not update the credential "${refs.workspacePracticeApi.name}" (${String(error)}): set its Base URL to ${sim.baseUrl}.`,
					),
				);
		}
		// Examples imported before are kept as the user left them; only new files are imported.
		const workflows: Record<string, string> = { ...(previous?.workflows ?? {}) };
		const examples = join(REPO_ROOT, 'examples');
		for (const file of readdirSync(examples).filter((f) => f.endsWith('.json'))) {
			if (workflows[file]) continue;
			const json = JSON.parse(readFileSync(join(examples, file), 'utf8')) as WorkflowJson;
			for (const node of json.nodes as NodeJson[]) {
				for (const type of Object.keys(node.credentials ?? {})) {
					if (refs[type] && node.credentials) node.credentials[type] = refs[type];
				}
			}
			const created = await api.createWorkflow({
				name: json.name,
				nodes: json.nodes,
				connections: json.connections,
				settings: json.settings,
			});
			workflows[file] = created.id;
		}
		const credential = refs.workspacePracticeApi;
		const state: EditorState = { simPort: sim.port, credentials: refs, workflows };
		return {
			n8n,
			api,
			sim,
			workflows,
			credentialId: credential.id,
			state,
			stop: async () => {
				await n8n.stop();
				await sim.close();
			},
		};
	} catch (error) {
		log(n8n.logTail());
		await n8n.stop();
		await sim.close();
		throw error;
	}
}

/** The credentials the examples name, for the simulator (a new user folder's first start). */
async function createCredentials(
	api: N8nApi,
	sim: RunningSimulator,
): Promise<Record<string, { id: string; name: string }>> {
	// Named as in the examples: importing one from its file then fills the slots by name too.
	const credential = await api.createCredential(
		'Workspace Practice account',
		'workspacePracticeApi',
		{
			baseUrl: sim.baseUrl,
			apiKey: sim.apiKey,
		},
	);
	const secret = await api.createCredential(
		'Workspace Practice callback secret',
		'workspacePracticeWebhookSecretApi',
		{
			headerName: 'X-Webhook-Secret',
			secret: 'change-me-to-a-long-random-value',
		},
	);
	// The AI examples' other credentials: a placeholder OpenAI key to replace, and the MCP server's token.
	const openAi = await api.createCredential('OpenAI account', 'openAiApi', {
		apiKey: 'replace-with-your-openai-api-key',
		header: false,
	});
	const bearer = await api.createCredential('MCP bearer token', 'httpBearerAuth', {
		token: `change-me-${randomUUID()}`,
	});
	return {
		workspacePracticeApi: { id: credential.id, name: credential.name },
		workspacePracticeWebhookSecretApi: { id: secret.id, name: secret.name },
		openAiApi: { id: openAi.id, name: openAi.name },
		httpBearerAuth: { id: bearer.id, name: bearer.name },
	};
}
