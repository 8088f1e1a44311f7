/**
 * `npm run editor`'s user folder (issue 41, point 6), without starting n8n: one folder per n8n version
 * under the n8n cache, kept between starts with what the last start made, emptied by `--clean`, and
 * never in the system temp folder.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';

import {
	editorFolder,
	parseEditorArgs,
	prepareEditorFolder,
	saveEditorState,
	type EditorState,
} from '../../scripts/n8n/editorFolder';
import { cacheRoot } from '../../scripts/n8n/paths';

// The test's own scratch folder sits in the run's temp folder (jest's globalSetup removes it).
let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), 'editor-folder-'));
});

/** The system temp folder as it was before jest made the run's own (test/support/globalSetup.js). */
const systemTemp = (): string =>
	(JSON.parse(process.env.WSP_JEST_TEMP_BEFORE ?? '{}') as { TMPDIR?: string }).TMPDIR ?? '/tmp';
afterEach(() => rmSync(root, { recursive: true, force: true }));

const state: EditorState = {
	simPort: 5679,
	credentials: { workspacePracticeApi: { id: 'c1', name: 'Workspace Practice account' } },
	workflows: { 'scenarios-from-deals.json': 'w1' },
};

test('the folder is under the n8n cache, per n8n version, not in the system temp folder', () => {
	const folder = editorFolder(cacheRoot(), '2.41.1');
	expect(folder).toBe(join(cacheRoot(), 'editor-n8n-2.41.1'));
	for (const temp of [systemTemp(), tmpdir(), '/tmp'])
		expect(resolve(folder).startsWith(resolve(temp))).toBe(false);
});

test('a first start makes an empty folder and has nothing to reuse', () => {
	const folder = join(root, 'editor');
	expect(prepareEditorFolder(folder, false)).toBeUndefined();
	expect(readdirSync(folder)).toEqual([]);
});

test('a later start keeps the folder and what the last start made', () => {
	const folder = join(root, 'editor');
	prepareEditorFolder(folder, false);
	writeFileSync(join(folder, 'database.sqlite'), 'the workflows built last time');
	saveEditorState(folder, state);
	expect(prepareEditorFolder(folder, false)).toEqual(state);
	expect(existsSync(join(folder, 'database.sqlite'))).toBe(true);
});

test('--clean empties the folder', () => {
	const folder = join(root, 'editor');
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, 'database.sqlite'), 'old');
	saveEditorState(folder, state);
	expect(prepareEditorFolder(folder, true)).toBeUndefined();
	expect(readdirSync(folder)).toEqual([]);
});

test('an unreadable state starts afresh rather than failing', () => {
	const folder = join(root, 'editor');
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, 'editor-state.json'), '{not json');
	expect(prepareEditorFolder(folder, false)).toBeUndefined();
	expect(readdirSync(folder)).toEqual([]);
});

test('arguments: --clean, or nothing; anything else shows the usage', () => {
	expect(parseEditorArgs([])).toEqual({ clean: false });
	expect(parseEditorArgs(['--clean'])).toEqual({ clean: true });
	expect(() => parseEditorArgs(['--fresh'])).toThrow(/usage: npm run editor \[-- --clean\]/);
});
