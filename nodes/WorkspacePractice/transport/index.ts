export { apiRequest } from './request';
export type { ApiRequest, ApiResponse } from './request';
export { apiList, apiListPage, mapWithConcurrency, MAX_PAGE_SIZE } from './paginate';
export type { ListOptions, ListPage, Pagination } from './paginate';
export type { TransportContext } from './context';
export { CREDENTIAL_TYPE } from './context';
export { asNodeError } from './errors';
