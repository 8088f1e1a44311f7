import { defineResource } from '../types';
import * as archive from './archive.operation';
import * as createFromUrl from './createFromUrl.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const knowledgeHubSource = defineResource({
	option: {
		name: 'Knowledge Hub Source',
		value: 'knowledgeHubSource',
		description:
			'A document or web page whose text the Knowledge Hub extracted (upload, URL, Notion, Google Drive and more)',
	},
	offers: [
		{
			name: 'Archive',
			value: 'archive',
			description: 'Archive (soft-delete) a source by its ID. Returns the ID and a deleted flag.',
			action: 'Archive a knowledge hub source by ID',
		},
		{
			name: 'Create From URL',
			value: 'createFromUrl',
			description:
				'Add a web page to the Knowledge Hub by its URL; its text is extracted in the background. A URL already added returns the existing source.',
			action: 'Create a knowledge hub source from a URL',
		},
		{
			name: 'Get',
			value: 'get',
			description:
				'Get one source by its ID: title, type, extraction status, summary and folders, optionally the extracted text',
			action: 'Get a knowledge hub source by ID',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List sources without their text (ID, title, type, extraction status, summary); filter by type, status, folder, page or words in the title',
			action: 'Get many knowledge hub sources',
		},
	],
	default: 'getAll',
	operations: { archive, createFromUrl, get, getAll },
	simplify: {
		createFromUrl: 'knowledgeHubSource',
		get: 'knowledgeHubSource',
		getAll: 'knowledgeHubSource',
	},
});
