import { listOperation } from '../../../shared/operations/listOperation';

export const { description, execute } = listOperation('collection', '/collections');
