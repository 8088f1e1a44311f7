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
import { installIntoUserFolder, packPackage } from './pack';
import { ensureInstalled, REPO_ROOT } from './paths';
import { freePort, N8nServer } from './server';

export interface ReadyInstance {
	n8n: N8nServer;
	api: N8nApi;
	sim: RunningSimulator;
	/** Imported example workflows by file name. */
	workflows: Record<string, string>;
	credentialId: string;
	stop(): Promise<void>;
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
): Promise<ReadyInstance> {
	log('Installing n8n if needed (cached after the first time)…');
	const install = ensureInstalled(2);
	log('Packing this package…');
	const tarball = packPackage();
	const userFolder = mkdtempSync(join(tmpdir(), 'wsp-editor-'));
	installIntoUserFolder(tarball, userFolder);
	const sim = await startSimulator({});
	log(`Simulator on ${sim.baseUrl}; starting n8n ${install.version}…`);
	const n8n = await N8nServer.start({ install, userFolder, port: await portNear(5678) }).catch(
		async (error: unknown) => {
			await sim.close();
			throw error;
		},
	);
	try {
		const api = new N8nApi(n8n.baseUrl);
		await api.bootstrap();
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
		const refs: Record<string, { id: string; name: string }> = {
			workspacePracticeApi: { id: credential.id, name: credential.name },
			workspacePracticeWebhookSecretApi: { id: secret.id, name: secret.name },
			openAiApi: { id: openAi.id, name: openAi.name },
			httpBearerAuth: { id: bearer.id, name: bearer.name },
		};
		const workflows: Record<string, string> = {};
		const examples = join(REPO_ROOT, 'examples');
		for (const file of readdirSync(examples).filter((f) => f.endsWith('.json'))) {
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
		return {
			n8n,
			api,
			sim,
			workflows,
			credentialId: credential.id,
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
