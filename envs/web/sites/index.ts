// The mini-sites, in the order reports list them.
import type { WebSite } from '../site.ts';
import { codeSite } from './code/index.ts';
import { helpdeskSite } from './helpdesk/index.ts';
import { recipesSite } from './recipes/index.ts';
import { shopSite } from './shop/index.ts';
import { travelSite } from './travel/index.ts';

// Each site is typed over its own database; the environment handles them as plain JSON data.
export const SITES = [shopSite, travelSite, recipesSite, codeSite, helpdeskSite] as unknown as WebSite[];
