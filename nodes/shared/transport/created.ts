import type { IDataObject } from 'n8n-workflow';

import type { ApiResponse } from './request';

/**
 * A create answer with `is_new`: the service's own value when it states one, else the status code
 * (201 a new object, 200 an existing one returned for the same request_id or URL).
 *
 * `ownKey`: the request_id was made for this call alone. Then, when an earlier attempt of this call
 * went out and its answer was lost, the retry's "already existed" is the object that lost attempt
 * made, so it is new. With a key the user gives (which an earlier run may have used) the service's
 * word stands.
 */
export function withIsNew(response: ApiResponse<IDataObject>, ownKey = false): IDataObject {
	const { status, body: created, answerLost } = response;
	const stated = typeof created.is_new === 'boolean' ? created.is_new : status === 201;
	return { ...created, is_new: stated || (ownKey && answerLost) };
}
