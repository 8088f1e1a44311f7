import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { validator } from '../../helpers/validate';
import { apiList } from '../../transport';
import { forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import type { QueryField } from '../scenario/filter.fields';
import { excludeSystemUsers, peopleFilters, properties, toQuery } from '../scenario/filter.fields';
import { readLocator } from '../scenario/locator';

const UUID_REGEX = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const filterFields: QueryField[] = [
	...peopleFilters,
	{
		kind: 'dateTime',
		property: {
			displayName: 'As Of',
			name: 'end_date',
			type: 'dateTime',
			default: '',
			description: 'Work out proficiency as it stood at this date and time (ISO 8601); now when left out',
		},
	},
	excludeSystemUsers,
];

const fields: INodeProperties[] = [
	{
		displayName: 'Skill',
		name: 'skill',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The skill to report on: pick it from the list or give its UUID',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchSkills', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f1c2b9e-8a4d-4c1e-9b7a-2d5e6f708192',
				validation: [{ type: 'regex', properties: { regex: UUID_REGEX, errorMessage: 'Not a UUID' } }],
			},
		],
	},
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: properties(filterFields),
	},
];

export const description = forOperation('skill', 'getProficiency', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const { value } = readLocator(this, itemIndex, 'skill', 'Skill');
	const skillId = validator(this, itemIndex).uuid('Skill', value);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs = toQuery(this, itemIndex, filters, filterFields);
	return await apiList<IDataObject>(this, `/skills/${skillId}/proficiency`, qs, readListOptions(this, itemIndex));
}
