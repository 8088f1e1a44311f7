import { groupIds } from '../../../shared/fields/filter.fields';
import { listOperation } from '../../../shared/operations/listOperation';

export const { description, execute } = listOperation('member', '/workspace/members', [groupIds]);
