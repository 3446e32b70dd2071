// The lookup family's local "web": a fixed catalogue of companies, each with a distinctive emblem (shape + colour +
// two-letter monogram) and one page of fields. The catalogue does not depend on the seed, because templates
// generate instances without knowing it and must agree with the tools' world.
import { seededRandom } from '../../../../engine/random.ts';
import { renderSvg, svgDoc, text } from '../../render.ts';
import { COLORS } from '../../tools/palette.ts';
import type { LookupPage, ToolWorld } from '../../tools/types.ts';
import { int, sample } from '../random.ts';

/** Shapes whose outlines differ enough (pairwise coverage cosine ≤ 0.45) that a colour may repeat across them. */
export const SHAPES = [
  'circle',
  'square',
  'triangle',
  'invtriangle',
  'ring',
  'bars',
  'frame',
  'xcross',
  'corner',
] as const;
export type Shape = (typeof SHAPES)[number];
/** Logo colours: saturated palette colours only (gray and black stay for decoration). */
export const LOGO_COLORS = ['red', 'blue', 'green', 'orange', 'purple', 'yellow', 'cyan', 'pink', 'brown'] as const;
export type LogoColor = (typeof LOGO_COLORS)[number];

export interface Company {
  id: string;
  name: string;
  monogram: string;
  shape: Shape;
  color: LogoColor;
  fields: CompanyFields;
}

export interface CompanyFields {
  Industry: string;
  Founded: number;
  Incorporated: number;
  Headquarters: string;
  'Registered office': string;
  CEO: string;
  Chair: string;
  Employees: number;
  Workforce: number;
  Ticker: string;
}
export type FieldName = keyof CompanyFields;

const FIRST = [
  'Vantor',
  'Kestrel',
  'Brindle',
  'Corvane',
  'Dunmore',
  'Elstrom',
  'Fenwick',
  'Galloway',
  'Halvern',
  'Istra',
  'Jorvik',
  'Kelso',
  'Larkspur',
  'Morrow',
  'Norvell',
  'Ostrava',
  'Pellam',
  'Quillon',
  'Redfern',
  'Solent',
  'Tamsin',
  'Ulverton',
  'Varga',
  'Wexford',
  'Yarrow',
  'Zenith',
  'Ashby',
  'Bexley',
  'Carrick',
  'Delmar',
  'Emberly',
  'Fairlie',
];
const SECOND = [
  'Labs',
  'Foods',
  'Logistics',
  'Energy',
  'Systems',
  'Textiles',
  'Motors',
  'Pharma',
  'Optics',
  'Freight',
  'Audio',
  'Robotics',
  'Mills',
  'Telecom',
  'Brewing',
  'Aerospace',
];
const INDUSTRY: Record<string, string> = {
  Labs: 'Research',
  Foods: 'Food',
  Logistics: 'Logistics',
  Energy: 'Energy',
  Systems: 'Software',
  Textiles: 'Textiles',
  Motors: 'Automotive',
  Pharma: 'Pharmaceuticals',
  Optics: 'Optics',
  Freight: 'Shipping',
  Audio: 'Consumer electronics',
  Robotics: 'Robotics',
  Mills: 'Paper',
  Telecom: 'Telecommunications',
  Brewing: 'Beverages',
  Aerospace: 'Aerospace',
};
const CITIES = [
  'Lisbon',
  'Oslo',
  'Leeds',
  'Lyon',
  'Porto',
  'Turin',
  'Graz',
  'Ghent',
  'Malmo',
  'Bergen',
  'Krakow',
  'Seville',
  'Dresden',
  'Utrecht',
  'Aarhus',
  'Tampere',
  'Bilbao',
  'Brno',
  'Cork',
  'Galway',
  'Basel',
  'Bremen',
  'Nantes',
  'Genoa',
  'Riga',
  'Tallinn',
  'Vilnius',
  'Ljubljana',
  'Zagreb',
  'Bologna',
  'Geneva',
  'Leipzig',
  'Antwerp',
  'Dundee',
  'Cardiff',
  'Bristol',
  'Toulouse',
  'Valencia',
  'Hamburg',
  'Munich',
  'Zurich',
  'Vienna',
  'Prague',
  'Warsaw',
  'Dublin',
  'Madrid',
  'Milan',
  'Naples',
  'Marseille',
  'Rotterdam',
  'Stuttgart',
  'Uppsala',
  'Odense',
  'Espoo',
  'Salzburg',
  'Innsbruck',
  'Lucerne',
  'Bordeaux',
  'Lille',
  'Granada',
  'Malaga',
  'Verona',
  'Padua',
  'Pisa',
];
const GIVEN = [
  'Mara',
  'Tobias',
  'Ines',
  'Soren',
  'Leila',
  'Anton',
  'Priya',
  'Hugo',
  'Freya',
  'Matteo',
  'Noor',
  'Emil',
  'Clara',
  'Rafael',
  'Ayla',
  'Jonas',
  'Selma',
  'Dario',
  'Vera',
  'Kofi',
  'Elena',
  'Tariq',
  'Greta',
  'Luca',
  'Nadia',
  'Oskar',
  'Paula',
  'Ravi',
  'Sofia',
  'Viktor',
  'Yara',
  'Felix',
];
const FAMILY = [
  'Quint',
  'Halloran',
  'Brandt',
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Castell',
  'Novak',
  'Petrov',
  'Sandoval',
  'Whitlock',
  'Albers',
  'Ferreira',
  'Kowalski',
  'Rossi',
  'Eklund',
  'Duarte',
  'Haines',
  'Ivers',
  'Jansen',
  'Keller',
  'Larsen',
  'Mendes',
  'Nilsen',
  'Ortega',
  'Pryor',
  'Renner',
  'Strand',
  'Tovey',
  'Varela',
  'Weston',
  'Zeller',
  'Abbott',
  'Barlow',
  'Crane',
  'Dalton',
  'Ellery',
  'Fisk',
  'Garner',
  'Hollis',
  'Ingram',
  'Kemp',
  'Lowell',
  'Marsh',
  'Nash',
  'Oakes',
  'Pike',
  'Rudd',
  'Sayer',
  'Thorne',
  'Upton',
  'Vance',
  'Wade',
  'Yates',
  'Ames',
  'Boyd',
  'Cole',
  'Drake',
  'Eaton',
  'Frost',
  'Gale',
  'Hart',
  'Irwin',
  'Judd',
];
const TICKER_LETTERS = 'ABCDEFGHKLMNPRSTUVWXYZ';

/** Logo designs in a fixed order that spreads shapes and colours, so no two companies look alike. */
function designs(): { shape: Shape; color: LogoColor }[] {
  const out: { shape: Shape; color: LogoColor }[] = [];
  // Shape s takes colours s, s+2, s+4, s+6 (mod 9): every (shape, colour) pair is used once.
  for (let k = 0; k < 4; k++)
    for (const [s, shape] of SHAPES.entries())
      out.push({ shape, color: LOGO_COLORS[(s + 2 * k) % LOGO_COLORS.length] as LogoColor });
  return out;
}

function buildCompanies(): Company[] {
  const rnd = seededRandom('visual-lookup-catalogue', 1);
  const looks = designs().slice(0, FIRST.length);
  const seconds = sample(rnd, SECOND, SECOND.length);
  const years = sample(
    rnd,
    Array.from({ length: 80 }, (_, i) => 1925 + i),
    looks.length,
  );
  const cities = sample(rnd, CITIES, looks.length * 2);
  const people = sample(rnd, FAMILY, looks.length * 2);
  const tickers = new Set<string>();
  const employees = new Set<number>();
  return looks.map((look, i) => {
    const first = FIRST[i] as string;
    const second = seconds[i % seconds.length] as string;
    const name = `${first} ${second}`;
    let ticker = '';
    while (!ticker || tickers.has(ticker))
      ticker =
        first.slice(0, 1) +
        Array.from({ length: 3 }, () => TICKER_LETTERS[int(rnd, 0, TICKER_LETTERS.length - 1)]).join('');
    tickers.add(ticker);
    let staff = 0;
    while (!staff || employees.has(staff)) staff = int(rnd, 12, 980) * 10 + int(rnd, 1, 9);
    employees.add(staff);
    const founded = years[i] as number;
    return {
      id: `${first}-${second}`.toLowerCase(),
      name,
      monogram: `${first[0]}${second[0]}`,
      shape: look.shape,
      color: look.color,
      fields: {
        Industry: INDUSTRY[second] as string,
        Founded: founded,
        Incorporated: founded + int(rnd, 3, 14),
        Headquarters: cities[2 * i] as string,
        'Registered office': cities[2 * i + 1] as string,
        CEO: `${GIVEN[i]} ${people[2 * i]}`,
        Chair: `${GIVEN[(i + 11) % GIVEN.length]} ${people[2 * i + 1]}`,
        Employees: staff,
        // Employees plus contractors: a different, larger head count.
        Workforce: staff + int(rnd, 40, 900) * 10 + int(rnd, 1, 9),
        Ticker: ticker,
      },
    };
  });
}

export const COMPANIES: Company[] = buildCompanies();

/** Star-shaped two-tone emblems that are not in the catalogue (an event's own mark). */
export function emblemSvg(x: number, y: number, size: number, outer: string, inner: string): string {
  const cx = x + size / 2;
  const cy = y + size / 2;
  const pts: string[] = [];
  for (let k = 0; k < 10; k++) {
    const r = (k % 2 ? 0.22 : 0.5) * size;
    const a = -Math.PI / 2 + (k * Math.PI) / 5;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `<polygon points="${pts.join(' ')}" fill="${outer}"/><circle cx="${cx}" cy="${cy + size * 0.03}" r="${size * 0.14}" fill="${inner}"/>`;
}

function polygon(points: [number, number][]): string {
  return `points="${points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ')}"`;
}

/** A company's emblem inside the square (x, y, size): every shape spans the whole square, so logo boxes agree. */
export function logoSvg(c: Pick<Company, 'shape' | 'color' | 'monogram'>, x: number, y: number, size: number): string {
  const fill = COLORS[c.color];
  const s = size;
  const cx = x + s / 2;
  const cy = y + s / 2;
  let shape: string;
  let textY = cy + s * 0.12;
  let textX = cx;
  let ink = '#ffffff';
  switch (c.shape) {
    case 'circle':
      shape = `<circle cx="${cx}" cy="${cy}" r="${s / 2}" fill="${fill}"/>`;
      break;
    case 'square':
      shape = `<rect x="${x}" y="${y}" width="${s}" height="${s}" rx="${s * 0.12}" fill="${fill}"/>`;
      break;
    case 'triangle':
      shape = `<polygon ${polygon([
        [cx, y],
        [x + s, y + s],
        [x, y + s],
      ])} fill="${fill}"/>`;
      textY = y + s * 0.84;
      break;
    case 'invtriangle':
      shape = `<polygon ${polygon([
        [x, y],
        [x + s, y],
        [cx, y + s],
      ])} fill="${fill}"/>`;
      textY = y + s * 0.4;
      break;
    case 'ring':
      shape = `<circle cx="${cx}" cy="${cy}" r="${s * 0.43}" fill="none" stroke="${fill}" stroke-width="${s * 0.14}"/>`;
      ink = fill;
      break;
    case 'bars': {
      const h = s * 0.24;
      shape = [0, 1, 2]
        .map((k) => `<rect x="${x}" y="${y + (k * (s - h)) / 2}" width="${s}" height="${h}" fill="${fill}"/>`)
        .join('');
      textY = cy + s * 0.065;
      break;
    }
    case 'frame': {
      const t = s * 0.13;
      shape = `<rect x="${x + t / 2}" y="${y + t / 2}" width="${s - t}" height="${s - t}" fill="none" stroke="${fill}" stroke-width="${t}"/>`;
      ink = fill;
      break;
    }
    case 'xcross': {
      const t = s * 0.2;
      shape = `<path d="M${x + t},${y} L${cx},${cy - t} L${x + s - t},${y} L${x + s},${y + t} L${cx + t},${cy} L${x + s},${y + s - t} L${x + s - t},${y + s} L${cx},${cy + t} L${x + t},${y + s} L${x},${y + s - t} L${cx - t},${cy} L${x},${y + t} Z" fill="${fill}"/>`;
      textY = -1;
      break;
    }
    case 'corner': {
      const t = s * 0.36;
      shape = `<path d="M${x},${y} h${t} v${s - t} h${s - t} v${t} h${-s} z" fill="${fill}"/>`;
      textY = y + s * 0.5;
      textX = x + s * 0.68;
      ink = fill;
      break;
    }
  }
  if (textY < 0) return shape;
  const size2 =
    c.shape === 'bars'
      ? s * 0.19
      : c.shape === 'triangle' || c.shape === 'invtriangle' || c.shape === 'corner'
        ? s * 0.22
        : s * 0.32;
  return (
    shape + text(textX, textY, c.monogram, { size: Math.round(size2), fill: ink, anchor: 'middle', weight: 'bold' })
  );
}

const LOGO_PX = 128;

function pageOf(c: Company): LookupPage {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.fields))
    fields[k] = typeof v === 'number' && v >= 10000 ? v.toLocaleString('en-US') : String(v);
  return { id: c.id, title: c.name, fields };
}

let world: Pick<ToolWorld, 'catalogue' | 'pages'> | undefined;

/** The rendered catalogue (one PNG logo per company) and the pages, built once. */
export function lookupWorld(): Pick<ToolWorld, 'catalogue' | 'pages'> {
  world ??= {
    catalogue: COMPANIES.map((c) => ({
      id: c.id,
      png: renderSvg(svgDoc(LOGO_PX, LOGO_PX, logoSvg(c, 4, 4, LOGO_PX - 8))).png,
    })),
    pages: new Map(COMPANIES.map((c) => [c.id, pageOf(c)])),
  };
  return world;
}
