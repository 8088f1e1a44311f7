import type { IDataObject } from 'n8n-workflow';

import type { ApiResponse } from './request';

/**
 * A create answer with `is_new`: the service's value, else 201 (new) or 200 (same request_id or URL).
 * With `ownKey` (a request_id made for this call alone) a retry's "already existed" after a lost answer
 * is the lost attempt's object, so it is new; a key the user gives may have been used by an earlier run.
 */
export function withIsNew(response: ApiResponse<IDataObject>, ownKey = false): IDataObject {
	const { status, body: created, answerLost } = response;
	const stated = typeof created.is_new === 'boolean' ? created.is_new : status === 201;
	return { ...created, is_new: stated || (ownKey && answerLost) };
}
