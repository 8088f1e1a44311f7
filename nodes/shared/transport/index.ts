export { apiRequest } from './request';
export type { ApiRequest, ApiResponse } from './request';
export { apiList, apiListPage, mapWithConcurrency, MAX_PAGE_SIZE } from './paginate';
export type { ListOptions, ListPage } from './paginate';
export type { TransportContext } from './context';
export { CREDENTIAL_TYPE } from './context';
export { asNodeError } from './errors';
export { callbackSecret } from './callbackSecret';
export { withIsNew } from './created';
