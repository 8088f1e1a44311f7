import type { IDataObject } from 'n8n-workflow';

import type { ApiResponse } from './request';

/**
 * `is_new`: the service's value, else 201. With `ownKey` (a request_id made for this call) an "already
 * existed" after a lost answer is the lost attempt's object: new. A user's key may be an earlier run's.
 */
export function withIsNew(response: ApiResponse<IDataObject>, ownKey = false): IDataObject {
	const { status, body: created, answerLost } = response;
	const stated = typeof created.is_new === 'boolean' ? created.is_new : status === 201;
	return { ...created, is_new: stated || (ownKey && answerLost) };
}
