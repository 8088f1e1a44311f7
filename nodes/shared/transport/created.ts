import type { IDataObject } from 'n8n-workflow';

/**
 * A create answer with `is_new`: the service's own value when it states one, else the status code
 * (201 a new object, 200 an existing one returned for the same request_id or URL).
 */
export function withIsNew(created: IDataObject, status: number): IDataObject {
	return {
		...created,
		is_new: typeof created.is_new === 'boolean' ? created.is_new : status === 201,
	};
}
