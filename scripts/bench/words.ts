/**
 * Word lists for the generated catalogue. Names combine a finish, a material and a product
 * noun per category, so trigram search meets the same mix of common and rare words a real
 * bedding and home-goods shop has.
 */

export type Category = "Bedding" | "Furniture" | "Decor" | "Accessories" | "Imported";

/** Shares of the catalogue (they add up to 1). */
export const CATEGORY_SHARES: [Category, number][] = [
  ["Bedding", 0.35],
  ["Furniture", 0.2],
  ["Decor", 0.25],
  ["Accessories", 0.15],
  ["Imported", 0.05],
];

export const NOUNS: Record<Category, string[]> = {
  Bedding: [
    "Duvet Cover", "Sheet Set", "Fitted Sheet", "Flat Sheet", "Pillowcase Pair", "Quilt", "Coverlet",
    "Throw Blanket", "Comforter", "Bedspread", "Pillow", "Mattress Topper", "Bed Skirt", "Euro Sham",
  ],
  Furniture: [
    "Bed Frame", "Bench", "Nightstand", "Armchair", "Dresser", "Headboard", "Side Table", "Bookshelf",
    "Stool", "Daybed", "Ottoman", "Console Table", "Wardrobe", "Chest of Drawers",
  ],
  Decor: [
    "Table Lamp", "Floor Lamp", "Vase", "Mirror", "Wall Art Print", "Candle Holder", "Rug", "Planter",
    "Wall Clock", "Picture Frame", "Cushion Cover", "Curtain Panel", "Pendant Shade", "Tapestry",
  ],
  Accessories: [
    "Storage Basket", "Scented Candle", "Bath Towel", "Hand Towel", "Bathrobe", "Slippers", "Serving Tray",
    "Storage Box", "Laundry Hamper", "Eye Mask", "Hot Water Bottle", "Tissue Box", "Bath Mat", "Diffuser",
  ],
  Imported: ["Duvet Cover", "Throw Blanket", "Cushion Cover", "Table Lamp", "Storage Basket", "Bath Towel", "Vase", "Stool"],
};

export const FINISHES = [
  "Stonewashed", "Washed", "Waffle", "Herringbone", "Chunky Knit", "Organic", "Heavyweight", "Percale",
  "Sateen", "Ribbed", "Quilted", "Pleated", "Woven", "Hand-Loomed", "Brushed", "Striped", "Gingham",
  "Textured", "Fringed", "Tufted", "Classic", "Nordic", "Coastal", "Heritage", "Minimal", "Rustic",
];

/** Common materials first; the rare ones at the end make the "specific" search terms. */
export const MATERIALS = [
  "Linen", "Linen", "Linen", "Cotton", "Cotton", "Cotton", "Wool", "Velvet", "Oak", "Walnut", "Ash",
  "Bamboo", "Jute", "Ceramic", "Stoneware", "Brass", "Marble", "Rattan", "Seagrass", "Cashmere",
];
export const RARE_MATERIALS = ["Alpaca", "Mohair", "Teak"];
export const RARE_MATERIAL_SHARE = 0.004;

export const COLORS = [
  "White", "Ivory", "Oatmeal", "Sand", "Sage", "Olive", "Charcoal", "Slate", "Navy", "Indigo", "Terracotta",
  "Rust", "Blush", "Clay", "Natural", "Stone", "Mustard", "Forest", "Dove Grey", "Black",
];

export const TAGS = [
  "bestseller", "new", "sustainable", "gift", "handmade", "organic", "limited", "classic", "seasonal",
  "bedroom", "living room", "bathroom", "nursery", "guest room", "outdoor",
];

export const ADJECTIVES = [
  "soft", "breathable", "durable", "lightweight", "cosy", "airy", "sturdy", "hand-finished", "timeless",
  "relaxed", "generous", "warm", "cool", "easy-care", "heirloom-quality", "understated", "tactile",
];

export const PLACES = ["Portugal", "Lithuania", "India", "Belgium", "Vietnam", "Turkey", "Italy", "Denmark", "Japan", "Peru"];

export const SENTENCES = [
  "Made in {place} from {material} chosen for a {adj} feel that gets better with every wash.",
  "A {adj} {noun} with a {finish} finish that suits both modern and traditional rooms.",
  "Pair it with our {material} pieces for a layered, {adj} look.",
  "Each piece is inspected by hand before it leaves the workshop.",
  "Care: machine wash cool, tumble dry low, or follow the label for natural materials.",
  "Designed to last for years, not seasons, with {adj} details throughout.",
  "The colour {color} was dyed in small batches, so slight variations make each one unique.",
  "Ships in plastic-free packaging; returns are free within 30 days.",
  "A customer favourite for {room} spaces that need something {adj}.",
];

export const ROOMS = ["bedroom", "living room", "guest room", "reading nook", "hallway", "bathroom", "nursery"];

export const POST_TOPICS = [
  "How to Layer a Bed", "Caring for Linen", "Choosing Thread Count", "A Calm Bedroom in Five Steps",
  "Winter Bedding Guide", "Summer Sleep Tips", "Styling Throw Blankets", "Natural Materials Explained",
  "Small Space Storage", "Picking the Right Pillow", "Colour Palettes for Rest", "Behind the Loom",
  "Sustainable Home Habits", "Guest Room Checklist", "The Art of the Made Bed", "Lighting for Evenings",
];
