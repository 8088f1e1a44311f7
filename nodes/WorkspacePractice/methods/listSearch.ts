// Resource-locator searches ("From List"). Each asks the API for one page at a time and hands n8n a
// pagination token, so a large workspace is never loaded whole. Filled in with the operations that
// need them.
export {};
