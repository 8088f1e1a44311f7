import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * Sorting for lists whose API takes one `sorting` value, "field" or "-field" for descending. The form
 * shows the two halves as Sort By and Sort Direction; the API's own default applies when neither is set.
 */
export function sortFields(keys: INodePropertyOptions[], defaultKey: string): INodeProperties[] {
	return [
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: keys,
			default: defaultKey,
			description: 'Which value to order the results by',
		},
		{
			displayName: 'Sort Direction',
			name: 'sortDirection',
			type: 'options',
			options: [
				{ name: 'Descending', value: 'descending', description: 'Highest or newest first' },
				{ name: 'Ascending', value: 'ascending', description: 'Lowest or oldest first' },
			],
			default: 'descending',
			description: 'Whether the highest or the lowest values come first',
		},
	];
}

/** The `sorting` query value, or undefined to keep the API's default order. */
export function readSorting(options: IDataObject, defaultKey: string): string | undefined {
	const key = typeof options.sortBy === 'string' && options.sortBy !== '' ? options.sortBy : undefined;
	const direction = options.sortDirection as string | undefined;
	if (key === undefined && direction === undefined) return undefined;
	return `${direction === 'ascending' ? '' : '-'}${key ?? defaultKey}`;
}
