import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { validator, type InputValidator } from '../../../shared/validate';
import { itemRef } from '../../../shared/values';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { readUuidLocator } from '../../../shared/fields/locator';
import {
	addPageLists,
	contentField,
	contentFromFields,
	pageListFields,
	pageStatusOptions,
	readPageContent,
} from './page.fields';
import { pageLocator } from './page.locator';

export const description = forOperation('knowledgeHubPage', 'update', [
	pageLocator({
		description: 'The page to update. Pick it from the list (search by title) or give its UUID.',
	}),
	...contentFromFields(),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'Only the fields added here are changed; everything else on the page stays as it is',
		options: [
			contentField(
				'New Markdown body (with Content From = Text; with Binary File the file is the body). It becomes a new draft; set Status to Published as well to publish it in the same step.',
			),
			...pageListFields(true),
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: pageStatusOptions,
				default: 'published',
				description:
					'Publish the latest draft as a new version, or set the page back to draft. To archive a page use the Archive operation.',
			},
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				description: 'New title of the page',
			},
		],
	},
]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const check = validator(this, itemIndex);
	const pageId = readUuidLocator(this, itemIndex, 'pageId', 'Page ID');
	const updates = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	if (updates.title !== undefined) body.title = check.required('Title', updates.title);
	const content = await readPageContent(this, itemIndex, updates.content);
	if (content !== undefined) body.content = content;
	if (updates.status !== undefined) {
		const status = check.text('Status', updates.status).trim();
		refuseArchived(check, status);
		body.status = status;
	}
	addPageLists(body, updates, check);
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'Update Fields: add at least one field to change',
			{
				itemIndex,
				description: `${itemRef(itemIndex)}: nothing to update, so no request was sent.`,
			},
		);
	}
	return await apiRequest<IDataObject>(this, {
		method: 'PATCH',
		path: `/knowledge-hub/pages/${encodeURIComponent(pageId)}`,
		body,
		itemIndex,
		what: `page ${pageId}`,
	}).then(({ body }) => body);
};

/** "archived" is a status the service has, but not one Update sets: say which operation does. */
function refuseArchived(check: InputValidator, status: unknown): void {
	if (status === 'archived')
		check.fail(
			'Status',
			'cannot be "archived" here: archive a page with Knowledge Hub Page → Archive',
		);
}

/** The router's check of the form's values leaves "archived" to this operation's own words. */
export function explainUnoffered(
	this: IExecuteFunctions,
	itemIndex: number,
	path: string,
	value: unknown,
): void {
	if (path === 'updateFields.status') refuseArchived(validator(this, itemIndex), value);
}
