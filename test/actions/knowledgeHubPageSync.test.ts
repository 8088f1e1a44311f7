import type { IDataObject } from 'n8n-workflow';

import { SEED } from '../../simulator';
import { json, rl, useSimulator } from './support';

const { folders, skills } = SEED;

const sim = useSimulator('knowledgeHubPage');
const { run } = sim;
const requests = () => sim.control.requests({ path: '/knowledge-hub/*' });
const writes = () => requests().filter((r) => r.method !== 'GET');
const versions = (pageId: string) => sim.control.store.page(pageId)?.versions.length;

const sync = (extra: IDataObject = {}) =>
	run({
		operation: 'createOrUpdate',
		title: 'Playbook: Pricing',
		content: '# Pricing\n',
		...extra,
	});

describe('Knowledge Hub Page → Create or Update', () => {
	test('missing: one title search, then a POST that publishes; sync_result created', async () => {
		const { items, error } = await sync();
		expect(error).toBeUndefined();
		expect(requests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/knowledge-hub/pages', { query: 'Playbook: Pricing', page: '1', page_size: '100' }],
			['POST', '/knowledge-hub/pages', {}],
		]);
		expect(writes()[0].body).toEqual({
			title: 'Playbook: Pricing',
			content: '# Pricing\n',
			status: 'published',
		});
		expect(json(items)[0]).toMatchObject({
			title: 'Playbook: Pricing',
			status: 'published',
			version: 1,
			content: '# Pricing\n',
			sync_result: 'created',
		});
	});

	test('same title and content again: two reads, no write, no new version; sync_result unchanged', async () => {
		const first = await sync();
		const pageId = String(json(first.items)[0].id);
		sim.control.clearRequests();
		// CRLF line endings and a trailing blank line are not a change.
		const { items } = await sync({ content: '# Pricing\r\n\r\n' });
		expect(requests().map((r) => [r.method, r.query])).toEqual([
			['GET', { query: 'Playbook: Pricing', page: '1', page_size: '100' }],
			['GET', { include: 'draft' }],
		]);
		expect(writes()).toHaveLength(0);
		expect(versions(pageId)).toBe(1);
		expect(json(items)[0]).toMatchObject({ id: pageId, sync_result: 'unchanged' });
	});

	test('changed content: one PATCH with content and status published; a new version', async () => {
		const first = await sync();
		const pageId = String(json(first.items)[0].id);
		sim.control.clearRequests();
		const { items } = await sync({ content: '# Pricing\n\nNew tier.' });
		expect(writes().map((r) => [r.method, r.path, r.body])).toEqual([
			[
				'PATCH',
				`/knowledge-hub/pages/${pageId}`,
				{ content: '# Pricing\n\nNew tier.', status: 'published' },
			],
		]);
		expect(versions(pageId)).toBe(2);
		expect(json(items)[0]).toMatchObject({
			content: '# Pricing\n\nNew tier.',
			version: 2,
			sync_result: 'updated',
		});
	});

	test('Publish off: a changed text becomes a draft, and the same draft again writes nothing', async () => {
		const first = await sync();
		const pageId = String(json(first.items)[0].id);
		sim.control.clearRequests();
		const changed = await sync({ content: 'Draft text', publish: false });
		expect(writes().map((r) => r.body)).toEqual([{ content: 'Draft text' }]);
		expect(json(changed.items)[0]).toMatchObject({ sync_result: 'updated', version: 1 });
		sim.control.clearRequests();
		const again = await sync({ content: 'Draft text', publish: false });
		expect(writes()).toHaveLength(0);
		expect(json(again.items)[0].sync_result).toBe('unchanged');
		// Publishing that draft later sends only the status: the draft already holds the text.
		sim.control.clearRequests();
		await sync({ content: 'Draft text' });
		expect(writes().map((r) => r.body)).toEqual([{ status: 'published' }]);
		expect(versions(pageId)).toBe(2);
	});

	test('title match is exact: a longer title or another case is a different page', async () => {
		sim.control.createPage({ title: 'Playbook: Pricing (old)', content: 'x', status: 'published' });
		sim.control.createPage({ title: 'playbook: pricing', content: 'x', status: 'published' });
		const { items } = await sync();
		expect(json(items)[0].sync_result).toBe('created');
	});

	test('two pages with the title: an error naming both IDs, nothing written', async () => {
		const a = sim.control.createPage({ title: 'Playbook: Pricing', content: 'a' });
		const b = sim.control.createPage({ title: ' Playbook: Pricing ', content: 'b' });
		const { error } = await sync();
		expect(error?.message).toContain('2 pages are titled "Playbook: Pricing"');
		expect(error?.message).toContain(a.id);
		expect(error?.message).toContain(b.id);
		expect(writes()).toHaveLength(0);
	});

	test('within a folder: the search is scoped, a missing page is created in it', async () => {
		// The same title elsewhere does not count.
		sim.control.createPage({ title: 'Playbook: Pricing', content: 'other', status: 'published' });
		const { items } = await sync({ options: { withinFolder: rl(folders.sales.id) } });
		expect(requests()[0].query).toMatchObject({ folder_id: folders.sales.id });
		expect(writes()[0].body).toMatchObject({ folder_ids: [folders.sales.id] });
		const created = json(items)[0];
		expect(created.sync_result).toBe('created');
		sim.control.clearRequests();
		const again = await sync({ options: { withinFolder: rl(folders.sales.id) } });
		expect(json(again.items)[0]).toMatchObject({ id: created.id, sync_result: 'unchanged' });
		expect(writes()).toHaveLength(0);
	});

	test('folders and skills in the same call: sent when they differ, not when they match', async () => {
		const options = { folder_ids: [folders.sales.id], skill_ids: [skills.discovery.id] };
		const first = await sync({ options });
		expect(writes()[0].body).toMatchObject({
			folder_ids: [folders.sales.id],
			skill_ids: [skills.discovery.id],
		});
		sim.control.clearRequests();
		await sync({ options });
		expect(writes()).toHaveLength(0);
		await sync({ options: { ...options, skill_ids: [] } });
		expect(writes().map((r) => r.body)).toEqual([{ skill_ids: [] }]);
		expect(json(first.items)[0].sync_result).toBe('created');
	});

	test('a bad folder ID fails before any request', async () => {
		const { error } = await sync({ options: { withinFolder: rl('sales', 'id') } });
		expect(error?.message).toMatch(/^Options → Within Folder: must be a UUID/);
		expect(requests()).toHaveLength(0);
	});
});
