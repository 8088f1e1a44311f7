import { searchFolders } from '../shared/methods/listSearch.knowledgeHub';
import { searchMemberIds, searchMembers } from '../shared/methods/listSearch.member';
import { searchSkills } from '../shared/methods/listSearch.skill';
import { getGroups, getScenarios, getSkills } from '../shared/methods/loadOptions';

/** The trigger's pickers: the same searches as the action node's Folder, Skill and Owner fields. */
export const listSearch = { searchFolders, searchMemberIds, searchMembers, searchSkills };

/** Practice Results and Skill Tiers pick-lists: scenarios, workspace groups and skills. */
export const loadOptions = { getGroups, getScenarios, getSkills };
