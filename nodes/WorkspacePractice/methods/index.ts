import * as listSearchMethods from './listSearch';
import * as loadOptionsMethods from './loadOptions';

export const listSearch = { ...listSearchMethods };
export const loadOptions = { ...loadOptionsMethods };
