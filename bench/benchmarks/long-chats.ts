// A multiple-choice benchmark over long histories in the data format, in the manner of LongMemEval and MemBench: a
// user's chats with an assistant over about eight months (30 sessions of advice on cooking, travel, work, fitness,
// reading, money and the home, with the assistant's long answers), and questions whose evidence is one turn among
// hundreds — a fact the user mentioned in passing, something the assistant recommended, a fact that changed (the
// question asks for the latest), a fact reached in two hops over sessions (the sister's name in one, where she moved
// in another), and what was going on in a named month. Every wrong choice but one is said in the history too, in
// turns that share words with the question (a brother's gym, the wine suggested for another dish, the job before,
// the cousin's move, the book of another month); the last is never said. The offline reader picks the choice whose
// words the payload holds the largest share of (ties: the earlier choice), so a payload that brings every candidate
// is a guess and one that brings the right turn without the others is right.
import { writeFileSync } from 'node:fs';
import { rng, type Rng } from './random.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const GYMS = [
  'Ironworks',
  'PulseFit',
  'Core Studio',
  'Summit Climbing',
  'Harbour Pool',
  'Kettlebell Club',
  'Studio Nine',
  'Riverside Rowing',
];
const DENTISTS = [
  'Dr Alvarez',
  'Dr Whitcombe',
  'Dr Osei',
  'Dr Lindgren',
  'Dr Patel',
  'Dr Moreno',
  'Dr Haddad',
  'Dr Kowalczyk',
];
const CAFES = [
  'Little Fern',
  'Copper Kettle',
  'Bean Theory',
  'Marigold',
  'The Roastery',
  'Paper Crane',
  'Foxglove',
  'Blue Door',
];
const BANKS = [
  'Northbank',
  'Crestline',
  'Heron Savings',
  'Oakmoor',
  'Tidewater',
  'Beacon Mutual',
  'Granary Trust',
  'Fairway',
];
const WINES = [
  'Pinot Noir',
  'Rioja',
  'Chablis',
  'Barolo',
  'Riesling',
  'Malbec',
  'Sancerre',
  'Chianti',
  'Syrah',
  'Albarino',
];
const DISHES = [
  'mushroom risotto',
  'roast lamb',
  'grilled salmon',
  'duck confit',
  'spicy ramen',
  'beef stew',
  'lemon chicken',
  'aubergine bake',
];
const PLANTS = [
  'fiddle leaf fig',
  'monstera',
  'snake plant',
  'peace lily',
  'rubber plant',
  'calathea',
  'pothos',
  'zz plant',
];
const FERTS = [
  'seaweed feed',
  'worm castings',
  'bone meal',
  'fish emulsion',
  'slow-release pellets',
  'compost tea',
  'liquid tomato feed',
];
const EMPLOYERS = [
  'Larkfield Analytics',
  'Tessellate',
  'Brightline Health',
  'Quarry Games',
  'Ostrander Bank',
  'Velo Cargo',
  'Maple Civic',
  'Northstar Energy',
  'Kiln Studio',
  'Harrow Legal',
];
const ROLES = [
  'data analyst',
  'product designer',
  'nurse manager',
  'backend engineer',
  'account lead',
  'operations planner',
];
const NEIGHBOURHOODS = [
  'Canal Quarter',
  'Elm Park',
  'Old Town',
  'Hillcrest',
  'Riverside',
  'Southgate',
  'Mill Lane',
  'Harbourside',
  'Greenhill',
];
const CARS = [
  'Volvo estate',
  'Honda Jazz',
  'Skoda Octavia',
  'Toyota Prius',
  'Kia Niro',
  'Mazda MX-5',
  'Fiat Panda',
  'Renault Zoe',
];
const RELATIVES = ['sister', 'brother', 'cousin', 'aunt', 'uncle', 'niece'];
const NAMES = [
  'Anneke',
  'Bastian',
  'Carmela',
  'Desmond',
  'Elodie',
  'Florian',
  'Giselle',
  'Hamish',
  'Ilse',
  'Jerome',
  'Katya',
  'Lorcan',
  'Marisol',
  'Niamh',
  'Osvaldo',
  'Priya',
];
const CITIES = [
  'Porto',
  'Ghent',
  'Bergen',
  'Valencia',
  'Krakow',
  'Bologna',
  'Tallinn',
  'Galway',
  'Lyon',
  'Graz',
  'Aarhus',
  'Ljubljana',
];
const BOOKS = [
  'The Glass Orchard',
  'Salt and Ember',
  'A Map of Winter',
  'The Quiet Engineer',
  'Northern Lights Almanac',
  'The Last Ferry',
  'Paper Kingdoms',
  'Harvest of Stars',
  'The Cartographer',
  'Small Hours',
];
const HOBBIES = [
  'pottery',
  'bouldering',
  'watercolour',
  'sourdough baking',
  'salsa dancing',
  'birdwatching',
  'chess',
  'woodcarving',
  'kayaking',
];

// Filler: each session is advice on a topic, with the assistant's answers long, as in real chat logs; several use the
// words the questions use (gym, wine, suggest, work, move, city, book, reading).
const TOPICS: { ask: string[]; answer: string[] }[] = [
  {
    ask: [
      'Can you help me plan meals for the week?',
      'What can I cook with leftover rice?',
      'Any tips for a dinner party for six?',
      'How do I keep herbs fresh longer?',
    ],
    answer: [
      'Plan around two or three base ingredients you can reuse: a tray of roast vegetables, a pot of grains and a batch of sauce go a long way across the week.',
      'Fried rice is the classic, but rice also works in stuffed peppers, rice pudding or arancini; keep it cold and use it within a day or two.',
      'For six people, pick one dish that can sit in the oven while you talk, a salad you can dress at the last minute, and a dessert made the day before. A bottle of wine per three guests is a fair rule.',
      'Soft herbs like parsley keep best upright in a glass of water in the fridge; woody herbs like rosemary prefer a damp paper towel in a container.',
    ],
  },
  {
    ask: [
      'I need to plan a long weekend away, any ideas?',
      'How do I find cheap train tickets?',
      'What should I pack for a city break?',
      'Is it worth getting travel insurance for short trips?',
    ],
    answer: [
      'A long weekend works best somewhere with short transfers: a city two or three hours away by train gives you two full days without airports.',
      'Book as early as the operator releases seats, travel mid-week, and check split tickets; railcards often pay for themselves in two trips.',
      'Comfortable shoes, a light layer, a power bank and copies of your bookings; most cities reward walking more than any itinerary does.',
      'For short trips it depends on what you already have: many bank accounts and cards include basic cover, so check before you buy a separate policy.',
    ],
  },
  {
    ask: [
      'How do I prepare for a performance review at work?',
      'My manager wants a project update, how do I structure it?',
      'How do I say no to extra work politely?',
      'Any advice for a first week in a new job?',
    ],
    answer: [
      'Collect evidence through the year: the projects you shipped, the numbers that moved, feedback you received. Go in with two goals for next year and one thing you want support with.',
      'Lead with the outcome and the date, then risks and what you need; keep details for questions. A one-page update is read, a ten-page one is skimmed.',
      "Name what you are working on and ask which should give way: it turns a refusal into a question about priorities, which is your manager's job.",
      'Listen more than you speak, write down names and acronyms, and ask for one small task you can finish in the first days.',
    ],
  },
  {
    ask: [
      'How often should I train each week?',
      'What is a good warm-up before running?',
      'I keep skipping the gym, any tips?',
      'How do I avoid sore knees when cycling?',
    ],
    answer: [
      'Three sessions a week with a rest day between them is enough for steady progress; add a fourth only when recovery feels easy.',
      'Five minutes of easy jogging, then leg swings, lunges and a few short strides; static stretching is better kept for after the run.',
      'Make it easy to start: a fixed time, a packed bag by the door and a friend who expects you. Many people find a gym near work beats one near home.',
      'Check your saddle height first: your knee should be slightly bent at the bottom of the stroke. Spin lighter gears at a higher cadence.',
    ],
  },
  {
    ask: [
      'Can you suggest a book for a long flight?',
      'How do I read more consistently?',
      'What makes a good book club pick?',
      'Audiobooks or paper, what do you think?',
    ],
    answer: [
      'For a long flight choose something with momentum, a thriller or a big family saga; save dense non-fiction for when you can take notes.',
      'Keep the book where your phone usually is, read ten pages before bed, and allow yourself to abandon books you do not enjoy.',
      'A good club book has something to argue about: a choice a character makes, an ending people read differently, or a setting few of you know.',
      'Both count. Audiobooks suit commutes and chores; paper suits books you want to underline and return to.',
    ],
  },
  {
    ask: [
      'How do I start a monthly budget?',
      'Should I pay off debt or save first?',
      'What is a sensible emergency fund?',
      'How do I stop impulse buying online?',
    ],
    answer: [
      "Start from last month's statements: sort spending into fixed costs, necessities and the rest, then set a target for the rest and review it weekly.",
      'Keep a small buffer first, then clear the most expensive debt; saving at two percent while paying twenty on a card loses money.',
      'Three to six months of essential costs is the usual advice; start with one month and build it up automatically after each payday.',
      'Remove saved cards, unsubscribe from shop emails and wait a day before buying anything over a set amount.',
    ],
  },
  {
    ask: [
      'My flat is always cold, what can I do?',
      'How do I get rid of damp in the bathroom?',
      'Any ideas to make a small room feel bigger?',
      'What plants survive in low light?',
    ],
    answer: [
      'Draught-proof the windows and doors first, use thick curtains at night and bleed the radiators; a rug on bare floorboards helps more than people expect.',
      'Run the extractor fan during and after showers, wipe the walls down and leave the door open afterwards; persistent mould needs a proper anti-mould treatment.',
      'Mirrors opposite windows, furniture on legs, one consistent light wall colour and fewer, larger pieces make a room read as bigger.',
      'Snake plants, ZZ plants and pothos all cope with low light; water them less than you think.',
    ],
  },
];
const SMALL_TALK = [
  'Thanks, that helps.',
  'Good point, I had not thought of that.',
  'Makes sense.',
  'I will try that this week.',
  'Great, thank you!',
  'Ok, noted.',
];
const ASSISTANT_ACK = [
  'Happy to help. Let me know how it goes.',
  'Glad it was useful.',
  'Good luck with it!',
  'Any time. Tell me if anything changes.',
];

interface Turn {
  id: string;
  speaker: string;
  text: string;
}

interface Question {
  id: string;
  question: string;
  scenario: string;
  choices: string[];
  correct: number;
  evidence: string[];
}

/** A session under construction: filler turns, and facts inserted as turns of their own. */
class Session {
  readonly turns: Turn[] = [];
  constructor(readonly n: number) {}
  say(speaker: string, text: string): Turn {
    const t = { id: `s${this.n + 1}:${this.turns.length + 1}`, speaker, text };
    this.turns.push(t);
    return t;
  }
}

function question(
  r: Rng,
  id: string,
  scenario: string,
  text: string,
  right: string,
  said: string[],
  unsaid: string[],
  evidence: Turn[],
): Question {
  const never = unsaid.find((x) => x !== right && !said.includes(x)) as string;
  const choices = r.shuffle([right, ...said.filter((x) => x !== right).slice(0, 2), never]);
  return {
    id,
    question: text,
    scenario,
    choices,
    correct: choices.indexOf(right),
    evidence: evidence.map((t) => t.id),
  };
}

function world(r: Rng, w: number, sessions: number): { world: unknown } {
  const ss = Array.from({ length: sessions }, (_, n) => new Session(n));
  const at = (lo: number, hi: number) => ss[Math.min(sessions - 1, lo + r.int(Math.max(1, hi - lo)))] as Session;
  const start = Date.UTC(2023, r.int(4), 1 + r.int(25), 9);
  const sessionTime = (n: number) => start + n * 8 * 86_400_000 + r.int(3) * 3_600_000;
  const times = ss.map((s) => sessionTime(s.n));
  const monthOf = (n: number) => new Date(times[n] as number);
  // Filler first, so facts land among advice.
  for (const s of ss) {
    const topic = r.pick(TOPICS);
    const order = r.shuffle([0, 1, 2, 3]).slice(0, 2 + r.int(2));
    for (const k of order) {
      s.say('User', topic.ask[k] as string);
      s.say('Assistant', topic.answer[k] as string);
      if (r.next() < 0.5) s.say('User', r.pick(SMALL_TALK));
    }
    s.say('Assistant', r.pick(ASSISTANT_ACK));
  }
  const insert = (s: Session, speaker: string, text: string): Turn => {
    const t = s.say(speaker, text);
    // Moved to a random place in the session (ids stay in the order said).
    s.turns.splice(s.turns.length - 1, 1);
    s.turns.splice(r.int(s.turns.length + 1), 0, t);
    return t;
  };
  const qs: Question[] = [];
  const qid = (k: string) => `u${w + 1}-${k}`;

  // Facts the user mentions once, with others' values said in turns that share the question's words.
  const userFacts = [
    {
      key: 'gym',
      pool: GYMS,
      q: 'Which gym did I sign up for?',
      mine: 'By the way, I finally signed up at {x}, the membership starts Monday.',
      other: [
        'My brother trains at {x} and keeps telling me to join the gym there.',
        'A colleague swears by the gym classes at {x}.',
      ],
    },
    {
      key: 'dentist',
      pool: DENTISTS,
      q: 'Which dentist am I registered with?',
      mine: 'I registered with {x} as my new dentist, the practice is close to home.',
      other: [
        "My partner's dentist is {x}, apparently very gentle.",
        'Someone at work recommended {x} as a dentist, but the waiting list is long.',
      ],
    },
    {
      key: 'cafe',
      pool: CAFES,
      q: 'Which café do I work from on Fridays?',
      mine: 'Fridays I work from {x} now, the café has good wifi.',
      other: [
        'We met friends at {x} for brunch, nice café but loud.',
        'There is a new café called {x} near the station, I have not tried it.',
      ],
    },
    {
      key: 'bank',
      pool: BANKS,
      q: 'Which bank did I open my savings account with?',
      mine: 'Opened the savings account with {x} today, the rate was the best I found.',
      other: [
        'My parents have banked with {x} forever.',
        'I compared a savings account at {x} but the rate was lower.',
      ],
    },
  ];
  for (const f of r.shuffle(userFacts).slice(0, 3)) {
    const [x, d1, d2] = r.shuffle(f.pool);
    const ev = insert(at(0, sessions), 'User', f.mine.replace('{x}', x as string));
    insert(at(0, sessions), 'User', (f.other[0] as string).replace('{x}', d1 as string));
    insert(at(0, sessions), 'User', (f.other[1] as string).replace('{x}', d2 as string));
    qs.push(
      question(r, qid(f.key), 'user-fact', f.q, x as string, [d1 as string, d2 as string], r.shuffle(f.pool), [ev]),
    );
  }

  // Things the assistant recommended: the same kind of advice for other cases, in other sessions.
  const assistantFacts = [
    {
      key: 'wine',
      pool: WINES,
      cases: DISHES,
      ask: 'What wine would go with {c}?',
      say: 'With {c} I would suggest a {x}; it has enough acidity to cut through the richness.',
      q: 'Which wine did you suggest for the {c}?',
    },
    {
      key: 'plant-feed',
      pool: FERTS,
      cases: PLANTS,
      ask: 'My {c} looks pale, should I feed it?',
      say: 'For a {c} I would suggest {x} once a month in spring and summer, and nothing in winter.',
      q: 'What feed did you suggest for my {c}?',
    },
  ];
  for (const f of assistantFacts) {
    const [x, d1, d2] = r.shuffle(f.pool);
    const [c, c1, c2] = r.shuffle(f.cases);
    const fill = (t: string, cc: string, xx: string) => t.replace('{c}', cc).replace('{x}', xx);
    let ev: Turn | undefined;
    for (const [cc, xx] of [
      [c, x],
      [c1, d1],
      [c2, d2],
    ] as [string, string][]) {
      const s = at(0, sessions);
      insert(s, 'User', fill(f.ask, cc, xx));
      const t = insert(s, 'Assistant', fill(f.say, cc, xx));
      if (cc === c) ev = t;
    }
    qs.push(
      question(
        r,
        qid(f.key),
        'assistant-fact',
        fill(f.q, c as string, ''),
        x as string,
        [d1 as string, d2 as string],
        r.shuffle(f.pool),
        [ev as Turn],
      ),
    );
  }

  // Facts that change: the question asks for the latest; earlier values are choices.
  const updates = [
    {
      key: 'job',
      pool: EMPLOYERS,
      q: 'Where do I work now?',
      first: 'I started as a {role} at {x} this week.',
      next: [
        'Big news: I accepted an offer from {x}, I start there next month.',
        'I handed in my notice, from next month I am at {x}.',
      ],
    },
    {
      key: 'home',
      pool: NEIGHBOURHOODS,
      q: 'Which neighbourhood do I live in now?',
      first: 'Our flat is in {x}, close to the park.',
      next: ['We finally moved, the new place is in {x}.', 'Moving again, we signed a lease in {x}.'],
    },
    {
      key: 'car',
      pool: CARS,
      q: 'What car do I drive now?',
      first: 'I drive an old {x}, it still runs fine.',
      next: ['Sold the old car and bought a {x}.', 'Traded in the car, I drive a {x} now.'],
    },
    {
      key: 'hobby',
      pool: HOBBIES,
      q: 'Which hobby am I doing these days?',
      first: 'I signed up for a {x} course on Tuesday evenings.',
      next: ['I dropped the course, I am into {x} now.', 'These days my free time goes to {x}.'],
    },
  ];
  for (const f of r.shuffle(updates).slice(0, 3)) {
    const values = r.shuffle(f.pool).slice(0, 2 + r.int(2));
    let ev: Turn | undefined;
    const slots = values.length;
    values.forEach((v, i) => {
      const lo = Math.floor((i * sessions) / slots);
      const hi = Math.floor(((i + 1) * sessions) / slots);
      const text = i === 0 ? f.first.replace('{role}', r.pick(ROLES)) : (f.next[(i - 1) % f.next.length] as string);
      ev = insert(at(lo, hi), 'User', text.replace('{x}', v));
    });
    const latest = values[values.length - 1] as string;
    qs.push(
      question(r, qid(f.key), 'knowledge-update', f.q, latest, r.shuffle(values.slice(0, -1)), r.shuffle(f.pool), [
        ev as Turn,
      ]),
    );
  }

  // Two hops: a relative named in one session, where they moved in another; a second relative moves too.
  const [rel1, rel2] = r.shuffle(RELATIVES);
  const [n1, n2] = r.shuffle(NAMES);
  const [city1, city2, city3] = r.shuffle(CITIES);
  {
    const a = insert(
      at(0, sessions / 2),
      'User',
      `My ${rel1} ${n1} is visiting next weekend, I need to tidy the spare room.`,
    );
    const b = insert(at(sessions / 2, sessions), 'User', `${n1} just moved to ${city1}, I will visit in the spring.`);
    insert(at(0, sessions / 2), 'User', `My ${rel2} ${n2} called, we had not talked in months.`);
    insert(at(sessions / 2, sessions), 'User', `${n2} is moving to ${city2} for a new job.`);
    insert(at(0, sessions), 'User', `I keep thinking about a city break in ${city3}.`);
    qs.push(
      question(
        r,
        qid('relative-city'),
        'multi-hop',
        `Which city did my ${rel1} move to?`,
        city1 as string,
        [city2 as string, city3 as string],
        r.shuffle(CITIES),
        [a, b],
      ),
    );
  }
  {
    // The relative's hobby: named in one session, said of them by name in another.
    const rel = RELATIVES.find((x) => x !== rel1 && x !== rel2) as string;
    const n = NAMES.find((x) => x !== n1 && x !== n2) as string;
    const [h1, h2] = r.shuffle(HOBBIES);
    const a = insert(at(0, sessions / 2), 'User', `My ${rel} ${n} wants advice on a birthday present for me.`);
    const b = insert(at(sessions / 2, sessions), 'User', `${n} has taken up ${h1}, every weekend now.`);
    insert(at(0, sessions), 'User', `${n1} tried ${h2} once and hated it.`);
    qs.push(
      question(
        r,
        qid('relative-hobby'),
        'multi-hop',
        `What hobby did my ${rel} take up?`,
        h1 as string,
        [h2 as string],
        r.shuffle(HOBBIES),
        [a, b],
      ),
    );
  }

  // What was going on in a named month: the same kind of fact in other months.
  const reads = r.shuffle(BOOKS).slice(0, 4);
  const readSessions = r
    .shuffle(Array.from({ length: sessions }, (_, n) => n))
    .slice(0, 4)
    .sort((a, b) => a - b);
  const readTurns = reads.map((b, i) =>
    insert(ss[readSessions[i] as number] as Session, 'User', `I am reading ${b} at the moment, slow start but good.`),
  );
  const months = readSessions.map((n) => `${MONTHS[monthOf(n).getUTCMonth()]} ${monthOf(n).getUTCFullYear()}`);
  for (const k of r.shuffle([0, 1, 2, 3]).slice(0, 2)) {
    // A month with two reads would have two answers: asked only when the month is its own.
    if (months.filter((m) => m === months[k]).length > 1) continue;
    qs.push(
      question(
        r,
        qid(`book-${k}`),
        'temporal',
        `Which book was I reading in ${months[k]}?`,
        reads[k] as string,
        reads.filter((_, i) => i !== k),
        r.shuffle(BOOKS),
        [readTurns[k] as Turn],
      ),
    );
  }

  return {
    world: {
      type: 'world',
      id: `user-${w + 1}`,
      speakers: ['User', 'Assistant'],
      sessions: ss.map((s) => {
        const d = new Date(times[s.n] as number);
        return {
          time: d.toISOString(),
          label: `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
          turns: s.turns,
        };
      }),
      questions: qs,
    },
  };
}

export function longChats(seed: number, worlds = 56, sessions = 30): string {
  const r = rng(seed);
  const lines = [
    JSON.stringify({
      type: 'dataset',
      name: 'long-chats',
      description:
        "A user's chats with an assistant over about eight months (30 sessions of advice). Questions ask, with choices, about a fact the user " +
        'mentioned in passing, what the assistant recommended, the latest value of something that changed, a fact reached over two sessions, ' +
        'or what was going on in a named month.',
      scoring: 'multiple-choice',
      budget: { maxChars: 2000, maxImages: 0 },
      trainShare: 0.3,
    }),
  ];
  for (let w = 0; w < worlds; w++) lines.push(JSON.stringify(world(r, w, sessions).world));
  return `${lines.join('\n')}\n`;
}

export function writeLongChats(path: string, seed: number): void {
  writeFileSync(path, longChats(seed));
}
