/**
 * Word lists for the owner's data: customers' names and towns, discount codes, and the terms
 * shoppers search for. The catalogue's own lists (words.ts) make most search terms, so searches
 * name things the shop sells; the LACKING terms are what it does not, and find nothing.
 */
import { COLORS, FINISHES, MATERIALS, NOUNS } from "./words";

export const FIRST_NAMES = [
  "Olivia", "Emma", "Amelia", "Sophia", "Charlotte", "Ava", "Isabella", "Mia", "Evelyn", "Harper", "Luna",
  "Camila", "Gianna", "Elizabeth", "Eleanor", "Ella", "Abigail", "Sofia", "Avery", "Scarlett", "Emily",
  "Aria", "Penelope", "Chloe", "Layla", "Mila", "Nora", "Hazel", "Madison", "Ellie", "Lily", "Nova",
  "Isla", "Grace", "Violet", "Aurora", "Riley", "Zoey", "Willow", "Emilia", "Stella", "Zoe", "Victoria",
  "Hannah", "Addison", "Leah", "Lucy", "Eliana", "Ivy", "Everly", "Lillian", "Paisley", "Elena", "Naomi",
  "Maya", "Natalie", "Kinsley", "Delilah", "Claire", "Audrey", "Aaliyah", "Ruby", "Brooklyn", "Alice",
  "Liam", "Noah", "Oliver", "James", "Elijah", "William", "Henry", "Lucas", "Benjamin", "Theodore",
  "Mateo", "Levi", "Sebastian", "Daniel", "Jack", "Michael", "Alexander", "Owen", "Asher", "Samuel",
  "Ethan", "Leo", "Jackson", "Mason", "Ezra", "John", "Hudson", "Luca", "Aiden", "Joseph", "David",
  "Jacob", "Logan", "Luke", "Julian", "Gabriel", "Grayson", "Wyatt", "Matthew", "Maverick", "Dylan",
  "Isaac", "Elias", "Anthony", "Thomas", "Jayden", "Carter", "Santiago", "Ezekiel", "Charles", "Josiah",
  "Caleb", "Cooper", "Lincoln", "Miles", "Christopher", "Nathan", "Isaiah", "Kai", "Joshua", "Andrew",
  "Angel", "Adrian", "Cameron", "Nolan", "Waylon", "Jaxon", "Roman", "Eli", "Wesley", "Aaron", "Ian",
  "Priya", "Aisha", "Mei", "Yuki", "Fatima", "Ingrid", "Siobhan", "Margit", "Tomasz", "Anouk", "Rafael",
];

/** Common surnames first: people are drawn with a skew toward the top of the list, as in life. */
export const SURNAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
  "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
  "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green",
  "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Gomez",
  "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes", "Stewart",
  "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper", "Peterson",
  "Bailey", "Reed", "Kelly", "Howard", "Ramos", "Kim", "Cox", "Ward", "Richardson", "Watson", "Brooks",
  "Chavez", "Wood", "James", "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes", "Price", "Alvarez", "Castillo",
  "Sanders", "Patel", "Myers", "Long", "Ross", "Foster", "Jimenez", "Powell", "Jenkins", "Perry", "Russell",
  "Sullivan", "Bell", "Coleman", "Butler", "Henderson", "Barnes", "Gonzales", "Fisher", "Vasquez",
  "Simmons", "Romero", "Jordan", "Patterson", "Alexander", "Hamilton", "Graham", "Reynolds", "Griffin",
  "Wallace", "Moreno", "West", "Cole", "Hayes", "Bryant", "Herrera", "Gibson", "Ellis", "Tran", "Medina",
  "Aguilar", "Stevens", "Murray", "Ford", "Castro", "Marshall", "Owens", "Harrison", "Fernandez",
  "McDonald", "Woods", "Washington", "Kennedy", "Wells", "Vargas", "Henry", "Chen", "Freeman", "Webb",
  "Tucker", "Guzman", "Burns", "Crawford", "Olson", "Simpson", "Porter", "Hunter", "Gordon", "Mendez",
  "Silva", "Shaw", "Snyder", "Mason", "Dixon", "Munoz", "Hunt", "Hicks", "Holmes", "Palmer", "Wagner",
  "Black", "Robertson", "Boyd", "Rose", "Stone", "Salazar", "Fox", "Warren", "Mills", "Meyer", "Rice",
  "Schmidt", "Garza", "Daniels", "Ferguson", "Nichols", "Stephens", "Soto", "Weaver", "Ryan", "Gardner",
  "Payne", "Grant", "Dunn", "Kelley", "Spencer", "Hawkins", "Arnold", "Pierce", "Vazquez", "Hansen",
  "Peters", "Santos", "Hart", "Bradley", "Knight", "Elliott", "Cunningham", "Duncan", "Armstrong",
  "Hudson", "Carroll", "Lane", "Riley", "Andrews", "Alvarado", "Ray", "Delgado", "Berry", "Perkins",
  "Hoffman", "Johnston", "Matthews", "Pena", "Richards", "Contreras", "Willis", "Carpenter", "Lawrence",
  "Sandoval", "Guerrero", "George", "Chapman", "Rios", "Estrada", "Ortega", "Watkins", "Greene", "Nunez",
  "Wheeler", "Valdez", "Harper", "Burke", "Larson", "Santiago", "Maldonado", "Morrison", "Franklin",
  "Carlson", "Austin", "Dominguez", "Carr", "Lawson", "Jacobs", "OBrien", "Lynch", "Singh", "Vega",
  "Bishop", "Montgomery", "Oliver", "Jensen", "Harvey", "Williamson", "Gilbert", "Dean", "Sims", "Espinoza",
  "Howell", "Li", "Wong", "Reid", "Hanson", "Le", "McCoy", "Garrett", "Burton", "Fuller", "Wang", "Weber",
  "Welch", "Rojas", "Lucas", "Marquez", "Fields", "Park", "Yang", "Little", "Banks", "Padilla", "Day",
  "Walsh", "Bowman", "Schultz", "Luna", "Fowler", "Mejia", "Davidson", "Acosta", "Brewer", "May", "Holland",
  "Juarez", "Newman", "Pearson", "Curtis", "Cortez", "Douglas", "Schneider", "Joseph", "Barrett", "Navarro",
  "Figueroa", "Keller", "Avila", "Wade", "Molina", "Stanley", "Hopkins", "Campos", "Barnett", "Bates",
  "Lindqvist", "Okonkwo", "Nakamura", "Kowalski", "Haugen", "Fitzgerald", "Abernathy", "Quintero",
];

export const EMAIL_DOMAINS = ["example.com", "example.org", "example.net", "mail.example", "inbox.example"];

/** Towns with their state and a sales-tax rate in basis points (orders are taxed by the address). */
export const TOWNS: [city: string, state: string, taxBasisPoints: number][] = [
  ["New York", "NY", 888], ["Brooklyn", "NY", 888], ["Los Angeles", "CA", 950], ["San Francisco", "CA", 863],
  ["San Diego", "CA", 775], ["Chicago", "IL", 1025], ["Houston", "TX", 825], ["Austin", "TX", 825],
  ["Dallas", "TX", 825], ["Phoenix", "AZ", 860], ["Philadelphia", "PA", 800], ["Seattle", "WA", 1035],
  ["Portland", "OR", 0], ["Denver", "CO", 881], ["Boston", "MA", 625], ["Atlanta", "GA", 890],
  ["Miami", "FL", 700], ["Orlando", "FL", 650], ["Minneapolis", "MN", 903], ["Detroit", "MI", 600],
  ["Nashville", "TN", 925], ["Charlotte", "NC", 725], ["Columbus", "OH", 750], ["Salt Lake City", "UT", 825],
  ["Anchorage", "AK", 0], ["Wilmington", "DE", 0], ["Burlington", "VT", 700], ["Madison", "WI", 550],
];

export const STREETS = [
  "Oak Street", "Maple Avenue", "Cedar Lane", "Elm Street", "Pine Road", "Willow Way", "Birch Drive",
  "Lake Shore Drive", "Hillcrest Road", "Park Avenue", "Main Street", "Church Street", "Mill Lane",
  "Sunset Boulevard", "Riverside Drive", "Highland Avenue", "Meadow Lane", "Forest Avenue",
];

/** Percent-off codes an owner would run over a year; the first ones are used most. */
export const DISCOUNT_CODES: [code: string, percent: number][] = [
  ["WELCOME10", 10], ["NEWSLETTER10", 10], ["SPRING15", 15], ["SUMMER20", 20], ["BEDDING15", 15],
  ["FALL10", 10], ["BLACKFRIDAY25", 25], ["VIP20", 20], ["FLASH30", 30], ["FRIENDS15", 15],
];

/** Things shoppers ask for that a bedding and home-goods shop does not carry: searches that find nothing. */
export const LACKING_TERMS = [
  "weighted blanket", "bunk bed", "crib sheet", "electric blanket", "memory foam pillow", "bean bag",
  "king size headboard", "blackout curtains", "silk pillowcase", "waterbed", "futon", "sleeping bag",
  "air mattress", "toddler bed", "baby blanket", "heated mattress pad", "cooling pillow", "body pillow",
  "dog bed", "cat bed", "shower curtain", "kitchen towels", "oven mitt", "tablecloth", "napkins",
  "gift card", "sale", "clearance", "outdoor cushions", "hammock",
];

/** A search term with one letter dropped, as a hurried shopper types it (never empty). */
export function dropLetter(term: string, at: number): string {
  const i = 1 + (at % Math.max(1, term.length - 2));
  return term.length > 3 ? term.slice(0, i) + term.slice(i + 1) : term;
}

/** A name with one letter changed: the typo'd customer searches (e.g. "Hendersen", "Robinsom"). */
export function changeLetter(name: string, at: number): string {
  const i = 1 + (at % Math.max(1, name.length - 1));
  const c = name[i]!.toLowerCase();
  const swap = "aeiou".includes(c) ? (c === "e" ? "a" : "e") : c === "n" ? "m" : c === "s" ? "z" : "n";
  return name.slice(0, i) + swap + name.slice(i + 1);
}

/**
 * Every term the searches draw from, most searched first: single words from the catalogue, then
 * "material noun" and "colour noun" pairs, misspellings, and the LACKING terms spread among them.
 */
export function searchTermPool(): { terms: string[]; lacking: boolean[] } {
  const nouns = [...new Set(Object.values(NOUNS).flat())].map((n) => n.toLowerCase());
  const materials = [...new Set(MATERIALS)].map((m) => m.toLowerCase());
  const colors = COLORS.map((c) => c.toLowerCase());
  const found = new Set<string>([
    ...materials,
    ...nouns,
    ...colors,
    ...FINISHES.map((f) => f.toLowerCase()),
    ...materials.flatMap((m) => nouns.map((n) => `${m} ${n}`)),
    ...colors.flatMap((c) => nouns.slice(0, 20).map((n) => `${c} ${n}`)),
  ]);
  // Misspellings still find products (the storefront search is typo-tolerant).
  const typos = [...materials, ...nouns].map((t, i) => dropLetter(t, i));
  const all = [...found];
  const terms: string[] = [];
  const lacking: boolean[] = [];
  // Every seventh term is one the shop lacks or a misspelling, so they sit at every popularity.
  const odd = [...LACKING_TERMS.map((t) => [t, true] as const), ...typos.map((t) => [t, false] as const)];
  let k = 0;
  for (let i = 0; i < all.length; i++) {
    if (i % 7 === 3 && k < odd.length) {
      terms.push(odd[k]![0]);
      lacking.push(odd[k]![1]);
      k++;
    }
    terms.push(all[i]!);
    lacking.push(false);
  }
  const seen = new Set<string>();
  const keep = terms.map((t) => !seen.has(t) && (seen.add(t), true));
  return { terms: terms.filter((_, i) => keep[i]), lacking: lacking.filter((_, i) => keep[i]) };
}
