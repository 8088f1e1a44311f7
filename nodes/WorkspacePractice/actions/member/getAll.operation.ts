import { groupIds } from '../shared/filter.fields';
import { listOperation } from '../shared/listOperation';

export const { description, execute } = listOperation('member', '/workspace/members', [groupIds]);
