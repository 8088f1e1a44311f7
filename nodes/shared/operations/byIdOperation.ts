import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readUuidLocator } from '../fields/locator';
import { apiRequest } from '../transport';
import type { OperationModule } from './operation';
import { forOperation } from './operation';

/** An object read or archived by the UUID its locator field gives. */
export interface ByIdSpec {
	resource: string;
	operation: string;
	/** The object's UUID locator; its name is the parameter read. */
	locator: INodeProperties;
	/** The noun in 404 messages ("Page" → "page <id>"); errors name the field by its display name. */
	label: string;
	/** The collection path, e.g. `/knowledge-hub/pages`; the encoded ID is appended. */
	path: string;
	more?: INodeProperties[];
	/** Boolean options that each add a value to `include` (e.g. includeDraft → include=draft). */
	includes?: Record<string, string>;
}

function objectPath(spec: ByIdSpec, id: string): string {
	return `${spec.path}/${encodeURIComponent(id)}`;
}

/** GETs the object, with `include` for each Include option on and each of `alsoInclude`. */
export async function getById(
	ctx: IExecuteFunctions,
	spec: ByIdSpec,
	itemIndex: number,
	alsoInclude: string[] = [],
): Promise<IDataObject> {
	const id = readUuidLocator(ctx, itemIndex, spec.locator.name, spec.locator.displayName);
	const options = spec.includes
		? (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject)
		: {};
	const include = new Set(
		Object.entries(spec.includes ?? {})
			.filter(([option]) => options[option] === true)
			.map(([, value]) => value),
	);
	for (const value of alsoInclude) include.add(value);
	const { body } = await apiRequest<IDataObject>(ctx, {
		method: 'GET',
		path: objectPath(spec, id),
		qs: include.size > 0 ? { include: [...include].join(',') } : undefined,
		itemIndex,
		what: `${spec.label.toLowerCase()} ${id}`,
	});
	return body;
}

export function getByIdOperation(spec: ByIdSpec): OperationModule {
	return {
		description: forOperation(spec.resource, spec.operation, [spec.locator, ...(spec.more ?? [])]),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			return await getById(this, spec, itemIndex);
		},
	};
}

/** Archive: DELETE; the spec leaves the answer open, so an empty one becomes `{id, deleted}`. */
export function archiveByIdOperation(spec: ByIdSpec): OperationModule {
	return {
		description: forOperation(spec.resource, spec.operation, [spec.locator]),
		async execute(this: IExecuteFunctions, itemIndex: number) {
			const id = readUuidLocator(this, itemIndex, spec.locator.name, spec.locator.displayName);
			const { body } = await apiRequest<IDataObject | undefined>(this, {
				method: 'DELETE',
				path: objectPath(spec, id),
				itemIndex,
				what: `${spec.label.toLowerCase()} ${id}`,
			});
			return body && typeof body === 'object' && Object.keys(body).length > 0
				? body
				: { id, deleted: true };
		},
	};
}
