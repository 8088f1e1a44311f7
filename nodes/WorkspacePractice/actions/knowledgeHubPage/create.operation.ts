import type { IDataObject } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import {
	addPageLists,
	contentField,
	contentFromFields,
	pageListFields,
	pageStatusOptions,
	pageVisibilityOptions,
	readPageContent,
} from './page.fields';
import { additionalFields } from '../fields';

export const description = forOperation('knowledgeHubPage', 'create', [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Pricing objection guide',
		description: 'Title of the new page',
	},
	...contentFromFields(),
	additionalFields([
		contentField(
			'Body of the page in Markdown (with Content From = Text; with Binary File the file is the body)',
		),
		...pageListFields(false),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: pageStatusOptions,
			default: 'draft',
			description: 'Whether to keep the page as a draft (the default) or publish it right away',
		},
		{
			displayName: 'Visibility',
			name: 'visibility',
			type: 'options',
			options: pageVisibilityOptions,
			default: 'workspace',
			description: 'Who can see the page (the service defaults to Workspace)',
		},
	]),
]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const check = validator(this, itemIndex);
	const title = check.required('Title', this.getNodeParameter('title', itemIndex, ''));
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = { title };
	const content = await readPageContent(this, itemIndex, additional.content);
	if (content !== undefined && content !== '') body.content = content;
	if (additional.status) body.status = additional.status;
	if (additional.visibility) body.visibility = additional.visibility;
	addPageLists(body, additional, check);
	return await apiRequest<IDataObject>(this, {
		method: 'POST',
		path: '/knowledge-hub/pages',
		body,
		itemIndex,
	}).then(({ body }) => body);
};
