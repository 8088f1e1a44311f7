import { listOperation } from '../shared/listOperation';

export const { description, execute } = listOperation('collection', '/collections');
