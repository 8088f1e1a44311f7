import * as loadOptionsMethods from './loadOptions';

// Resource-locator searches, one module per resource; each exports `search<Resource>s` functions.
// Add a module's import and spread here.
export const listSearch = {};

export const loadOptions = { ...loadOptionsMethods };
