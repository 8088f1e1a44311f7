import * as loadOptionsMethods from './loadOptions';
import * as knowledgeHubLoadOptions from './loadOptions.knowledgeHub';
import * as knowledgeHubSearch from './listSearch.knowledgeHub';
import * as scenarioSearch from './listSearch.scenario';
import * as sessionSearch from './listSearch.session';
import * as skillSearch from './listSearch.skill';

// Resource-locator searches, one module per resource; each exports `search<Resource>s` functions.
// Add a module's import and spread here.
export const listSearch = { ...knowledgeHubSearch, ...scenarioSearch, ...sessionSearch, ...skillSearch };

export const loadOptions = { ...loadOptionsMethods, ...knowledgeHubLoadOptions };
