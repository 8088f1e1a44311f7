import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../../shared/transport';
import { readListOptions, returnAllAndLimit } from '../../../shared/fields/list.fields';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { optionsField } from '../fields';

const fields: INodeProperties[] = [
	...returnAllAndLimit,
	optionsField([
		{
			displayName: 'Include Proficiency',
			name: 'includeProficiency',
			type: 'boolean',
			default: true,
			description:
				'Whether to add workspace-wide proficiency figures per skill: people who practiced it, people with a score, share at proficient or better, and average score',
		},
	]),
];

export const description = forOperation('skill', 'getAll', fields);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const qs: IDataObject = options.includeProficiency === true ? { include: 'proficiency' } : {};
	return await apiList<IDataObject>(this, '/skills', qs, readListOptions(this, itemIndex));
};
