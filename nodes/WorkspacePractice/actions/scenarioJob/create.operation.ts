import { forOperation } from '../../../shared/operations/operation';
import { createFields } from './create.fields';

/**
 * Scenario Job → Create. The form is read in create.read.ts; one item goes through create.single.ts
 * (Until Callback: create.untilCallback.ts); a list By Polling through create.list.ts.
 */
export const description = forOperation('scenarioJob', 'create', createFields);

export { execute } from './create.single';
export { executeAll } from './create.list';
