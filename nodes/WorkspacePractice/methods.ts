import * as loadOptionsMethods from '../shared/methods/loadOptions';
import * as knowledgeHubLoadOptions from '../shared/methods/loadOptions.knowledgeHub';
import * as knowledgeHubSearch from '../shared/methods/listSearch.knowledgeHub';
import * as memberSearch from '../shared/methods/listSearch.member';
import * as scenarioSearch from '../shared/methods/listSearch.scenario';
import * as sessionSearch from '../shared/methods/listSearch.session';
import * as skillSearch from '../shared/methods/listSearch.skill';

// Resource-locator searches, one module per resource, each exporting `search<Resource>s` functions.
export const listSearch = {
	...knowledgeHubSearch,
	...memberSearch,
	...scenarioSearch,
	...sessionSearch,
	...skillSearch,
};

export const loadOptions = { ...loadOptionsMethods, ...knowledgeHubLoadOptions };
