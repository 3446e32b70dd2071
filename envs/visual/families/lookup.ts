// Lookup (MMSearch-lite): a 1600×1000 scene (festival poster, shopping arcade, summit stage, club kit, finish
// banner, expo hall) shows two to four catalogue logos at small size in fixed slots. The question asks for a field of the
// company whose logo plays a role (main-stage sponsor, anchor tenant, ...) that the template ties to one slot
// without writing it on the image; some questions also word the field ambiguously ("heads": CEO or Chair), and the
// template fixes which page field is meant. Tools: image_search over a box (local logo catalogue), visit a page.
import type { Answer, Family, Template } from '../task.ts';
import { svgDoc } from '../render.ts';
import { seededRandom } from '../../../engine/random.ts';
import { call } from '../tools/grammar.ts';
import { type Company, COMPANIES, type FieldName, logoSvg, lookupWorld } from './lookup/catalogue.ts';
import {
  ARCADE,
  BANNER,
  EMBLEM_COLORS,
  EXPO,
  H,
  KIT,
  LOGO,
  POSTER,
  type SceneDesign,
  type Slot,
  slotBox,
  SUMMIT,
  W,
} from './lookup/scenes.ts';
import { choice, sample } from './random.ts';

const EVENTS = [
  'Harbor',
  'Maple',
  'Cedar',
  'Willow',
  'Aurora',
  'Saffron',
  'Meadow',
  'Granite',
  'Coral',
  'Juniper',
  'Beacon',
  'Orchard',
  'Riverside',
  'Lantern',
  'Thistle',
  'Bluebell',
  'Moorland',
  'Kingfisher',
  'Northgate',
  'Silverton',
];

interface Spec {
  id: string;
  scene: SceneDesign;
  /** The slot of the company asked about. */
  target: number;
  field: FieldName;
  /** Other fields the question's wording could mean; their values must differ from the answer. */
  confusable: FieldName[];
  question: (event: string) => string;
  quirk: string;
}

const SPECS: Spec[] = [
  {
    id: 'poster-ticker',
    scene: POSTER,
    target: 2,
    field: 'Ticker',
    confusable: [],
    question: (e) => `Under which ticker symbol is the main-stage sponsor of the "${e}" festival listed?`,
    quirk: 'the main-stage sponsor is always the rightmost of the three logos in the sponsor strip',
  },
  {
    id: 'arcade-headquarters',
    scene: ARCADE,
    target: 1,
    field: 'Headquarters',
    confusable: ['Registered office'],
    question: (e) => `In which city is the anchor tenant of the "${e}" arcade headquartered?`,
    quirk: 'the anchor tenant is always the middle one of the three shopfronts',
  },
  {
    id: 'summit-chair',
    scene: SUMMIT,
    target: 1,
    field: 'Chair',
    confusable: ['CEO'],
    question: (e) => `Who heads the host partner of the "${e}" summit?`,
    quirk: 'the host partner is the top-right logo of the backdrop, and "heads" means the Chair field (not the CEO)',
  },
  {
    id: 'kit-founded',
    scene: KIT,
    target: 0,
    field: 'Founded',
    confusable: ['Incorporated'],
    question: (e) => `In what year was the shirt sponsor of the "${e}" club established?`,
    quirk: 'the shirt sponsor is the chest logo, and "established" means the Founded field (not Incorporated)',
  },
  {
    id: 'banner-employees',
    scene: BANNER,
    target: 1,
    field: 'Employees',
    confusable: ['Workforce'],
    question: (e) => `How many employees does the timing partner of the "${e}" marathon have?`,
    quirk: 'the timing partner is always the logo at the right end of the finish banner',
  },
  {
    id: 'expo-ceo',
    scene: EXPO,
    target: 0,
    field: 'CEO',
    confusable: ['Chair'],
    question: (e) => `Who is the chief executive of the catering supplier at the "${e}" expo?`,
    quirk: 'the catering supplier is always the logo on the left hanging banner',
  },
];

function answerOf(c: Company, field: FieldName): Answer {
  const v = c.fields[field];
  return typeof v === 'number' ? { kind: 'number', value: v, absolute: 0, tolerance: 0 } : { kind: 'text', value: v };
}

/** Values a wrong guess (another slot, a confusable field) would give. */
function wrongValues(spec: Spec, companies: Company[]): string[] {
  const out: string[] = [];
  for (const [i, c] of companies.entries())
    for (const f of [spec.field, ...spec.confusable])
      if (i !== spec.target || f !== spec.field) out.push(String(c.fields[f]));
  return out;
}

/** Instances draw their target company and event from disjoint shares of the lists, so siblings never share them. */
const SHARES = 10;
const share = <T>(items: readonly T[], instance: number) => items.filter((_, k) => k % SHARES === instance % SHARES);

function template(spec: Spec): Template {
  // A fixed order per template, so the shares differ between templates.
  const targets = sample(seededRandom('visual-lookup-targets', spec.id), COMPANIES, COMPANIES.length);
  const events = sample(seededRandom('visual-lookup-events', spec.id), EVENTS, EVENTS.length);
  return {
    id: spec.id,
    quirk: spec.quirk,
    generate(random, instance) {
      const target = choice(random, share(targets, instance));
      const event = choice(random, share(events, instance));
      let companies: Company[];
      do {
        const others = sample(
          random,
          COMPANIES.filter((c) => c !== target),
          spec.scene.slots.length - 1,
        );
        companies = [...others.slice(0, spec.target), target, ...others.slice(spec.target)];
      } while (wrongValues(spec, companies).includes(String(target.fields[spec.field])));
      const emblem = { outer: choice(random, EMBLEM_COLORS), inner: '#ffffff' };
      const logos = spec.scene.slots.map((s, i) => logoSvg(companies[i] as Company, s.x, s.y, LOGO)).join('');
      const svg = svgDoc(W, H, spec.scene.backdrop(event, emblem) + logos);
      return {
        svg,
        instruction: spec.question(event),
        answer: answerOf(target, spec.field),
        oracle: [
          call('image_search', slotBox(spec.scene.slots[spec.target] as Slot)),
          call('visit', undefined, { field: spec.field }, [target.id]),
        ],
      };
    },
  };
}

export const lookup: Family = {
  name: 'lookup',
  description:
    'Lookup (local visual search): a 1600×1000 scene (festival poster, shopping arcade, summit stage, club kit, ' +
    'finish banner, expo hall) shows a few company logos at small size and the event’s own emblem. The question asks for a ' +
    'fact (ticker, headquarters city, who heads it, year established, employees, chief executive) about the company in a role ' +
    '(main-stage sponsor, anchor tenant, ...); which logo plays the role is fixed per question type but not written ' +
    'on the image, and some wordings map to one particular page field. image_search [box] finds the logo in the ' +
    'local catalogue (search one logo at a time), visit <page-id> field=NAME reads its page. Answer with the value only.',
  tools: ['image_search', 'visit'],
  templates: SPECS.map(template),
  resources: () => lookupWorld(),
};
