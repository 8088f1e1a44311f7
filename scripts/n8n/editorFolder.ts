/**
 * `npm run editor` keeps one n8n user folder between starts, so the workflows built last time are still
 * there: `<n8n cache>/editor-n8n-<version>` (beside the cached n8n installs, outside the repository and
 * the system temp folder). `--clean` removes it first. `editor-state.json` inside it remembers what the
 * first start made (the simulator's port, the credentials, the imported examples), so a later start
 * reuses them instead of adding copies.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EditorState {
	/** The simulator's port; the credential's Base URL points at it. */
	simPort: number;
	/** Credential IDs by credential type. */
	credentials: Record<string, { id: string; name: string }>;
	/** Imported example workflows: file name → workflow ID. */
	workflows: Record<string, string>;
}

const STATE_FILE = 'editor-state.json';

export function editorFolder(cacheRoot: string, n8nVersion: string): string {
	return join(cacheRoot, `editor-n8n-${n8nVersion}`);
}

/** `--clean` starts from an empty folder; anything else is refused with the usage. */
export function parseEditorArgs(argv: readonly string[]): { clean: boolean } {
	const unknown = argv.filter((arg) => arg !== '--clean');
	if (unknown.length)
		throw new Error(`unknown argument ${unknown.join(' ')}; usage: npm run editor [-- --clean]`);
	return { clean: argv.includes('--clean') };
}

/**
 * Makes the folder ready: removed first with `clean`; the state of the last start when there is one (a
 * folder without a readable state is started afresh, as after `--clean`).
 */
export function prepareEditorFolder(folder: string, clean: boolean): EditorState | undefined {
	const statePath = join(folder, STATE_FILE);
	if (!clean && existsSync(statePath)) {
		try {
			return JSON.parse(readFileSync(statePath, 'utf8')) as EditorState;
		} catch {
			// An unreadable state: start clean below.
		}
	}
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	return undefined;
}

export function saveEditorState(folder: string, state: EditorState): void {
	writeFileSync(join(folder, STATE_FILE), JSON.stringify(state, null, 2));
}
