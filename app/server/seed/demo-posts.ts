/**
 * Demo blog posts for Linen & Loft: data only, no database code.
 *
 * `content` is HTML limited to p, h2, h3, ul, ol, li, strong, em, blockquote and
 * a href="https://…". `daysAgo` is how many days before "today" the post was
 * created. `image` describes the illustration drawn by demo-images.server.ts.
 */
import type { Motif } from "./demo-images.server";

export type DemoPost = {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  tags: string[];
  featured: boolean;
  published: boolean;
  metaTitle: string;
  metaDescription: string;
  daysAgo: number;
  image: { hue: number; motif: Motif };
};

export const demoPosts: DemoPost[] = [
  {
    title: "Thread Count, Demystified: What the Number Really Tells You",
    slug: "thread-count-demystified",
    excerpt:
      "Higher is not always better. Here is what thread count actually measures, where the sweet spot is, and what matters more.",
    content: `<p>Thread count is the number of threads woven into one square inch of fabric, counting both the lengthwise (warp) and crosswise (weft) threads. A sheet with 150 warp and 150 weft threads per inch has a thread count of 300. It is a real measurement, but it has become a marketing number, and that is where the confusion starts.</p>
<h2>Why 1,000 thread count sheets can feel worse</h2>
<p>There is only so much room in a square inch. To reach very high numbers, some mills twist several thin, weaker strands together and count each one separately: a "1,000 thread count" sheet may really be 250 two-ply or four-ply threads. The result is often heavier, less breathable and stiffer than a well-made 300 thread count sheet, and multi-ply yarns made from short fibres tend to pill.</p>
<h2>The sweet spot</h2>
<ul>
<li><strong>Percale:</strong> 200 to 400 is ideal. Above that, the tight plain weave starts to lose the airflow that makes percale feel cool.</li>
<li><strong>Sateen:</strong> 300 to 600. Sateen floats more threads on the surface, so it can take a slightly higher count while staying soft.</li>
<li><strong>Linen:</strong> thread count is rarely quoted at all. Linen yarns are thicker, so look at the fabric weight instead, usually 140 to 190 grams per square metre (GSM) for bedding.</li>
</ul>
<h2>What matters more than the number</h2>
<p>Fibre quality makes the biggest difference. Long-staple cotton has longer individual fibres, which spin into smoother, stronger yarn that pills less and softens over time instead of wearing thin. Single-ply yarn is generally a better sign than multi-ply. The weave decides how the sheet feels: percale is crisp and matte, sateen is smooth with a soft sheen.</p>
<blockquote>A good 300 thread count sheet in long-staple cotton will outlast and outperform a cheap 1,000 thread count sheet almost every time.</blockquote>
<p>When you shop, read past the headline number: check the fibre, the weave, whether the yarn is single-ply, and whether the fabric has a certification such as <a href="https://www.oeko-tex.com/en/our-standards/oeko-tex-standard-100">OEKO-TEX STANDARD 100</a>. Those details tell you far more about how your sheets will feel in five years.</p>`,
    tags: ["thread count", "sheets", "buying guide", "cotton"],
    featured: true,
    published: true,
    metaTitle: "Thread Count Explained: What Really Matters in Sheets",
    metaDescription:
      "What thread count measures, why 1,000 isn't always better, the sweet spot for percale, sateen and linen, and what matters more when buying sheets.",
    daysAgo: 4,
    image: { hue: 210, motif: "sheet" },
  },
  {
    title: "Linen vs. Cotton: Choosing the Right Sheets for How You Sleep",
    slug: "linen-vs-cotton-sheets",
    excerpt:
      "Both make wonderful bedding, but they feel very different. A practical comparison to help you pick the one that suits you.",
    content: `<p>Linen and cotton are both natural, breathable plant fibres, and both make excellent sheets. The right choice depends less on which is "better" and more on how you sleep, how you like your bed to feel, and how much you mind a wrinkle.</p>
<h2>How linen feels</h2>
<p>Linen is made from flax. Its fibres are long and hollow, so the fabric moves air and moisture away from the body quickly, which is why hot sleepers often swear by it. New linen can feel a little textured; after a few washes it becomes soft and supple, and it keeps improving for years. It wrinkles easily, and that relaxed look is part of its charm.</p>
<h2>How cotton feels</h2>
<p>Cotton is smoother from day one and comes in more weaves. <strong>Percale</strong> is crisp, cool and matte, like a good hotel bed. <strong>Sateen</strong> is silky with a soft sheen and feels a touch warmer. <strong>Jersey</strong> and <strong>flannel</strong> are cosy options for people who dislike a cool sheet.</p>
<h2>A quick comparison</h2>
<ul>
<li><strong>Temperature:</strong> linen is the coolest; percale is close behind; sateen and flannel are warmer.</li>
<li><strong>Texture:</strong> linen is textured and relaxed; cotton is smoother and more uniform.</li>
<li><strong>Durability:</strong> both last many years when well made. Linen fibres are very strong and tend to outlive cotton.</li>
<li><strong>Wrinkles:</strong> linen wrinkles readily; percale creases a little; sateen stays the smoothest.</li>
<li><strong>Price:</strong> linen usually costs more because flax is slower to process.</li>
</ul>
<h3>Our rule of thumb</h3>
<p>If you run hot, live somewhere humid, or like a lived-in bed, choose linen. If you love a crisp, smooth, freshly made look, choose cotton percale. If you are unsure, try a pair of linen pillowcases with your existing cotton sheets: it is the cheapest way to find out whether you like the texture.</p>`,
    tags: ["linen", "cotton", "sheets", "buying guide"],
    featured: true,
    published: true,
    metaTitle: "Linen vs Cotton Sheets: Which Is Right for You?",
    metaDescription:
      "Linen or cotton sheets? Compare temperature, texture, durability, wrinkles and price, and find the bedding that matches how you sleep.",
    daysAgo: 11,
    image: { hue: 35, motif: "sheet" },
  },
  {
    title: "How to Wash Linen Bedding So It Lasts for Decades",
    slug: "how-to-wash-linen-bedding",
    excerpt:
      "Linen is tough, but a few simple habits keep it soft and strong for years. Here is our step-by-step care routine.",
    content: `<p>Good linen can last for decades, and it gets softer with every wash. It does not need special treatment, but it does reward a gentle routine. These are the steps we follow for our own bedding.</p>
<h2>Washing</h2>
<ol>
<li><strong>Wash before first use.</strong> It starts the softening process and removes any loose fibres.</li>
<li><strong>Use a warm or cool wash</strong>, around 30 to 40°C (86 to 104°F), on a gentle cycle. Hot washes are rarely needed and can cause shrinkage.</li>
<li><strong>Don't overload the machine.</strong> Linen absorbs a lot of water and needs room to move to rinse clean.</li>
<li><strong>Choose a mild, liquid detergent</strong> and use a little less than the label suggests.</li>
<li><strong>Skip bleach and optical brighteners.</strong> They weaken flax fibres. For white linen, an oxygen-based whitener is a gentler option.</li>
</ol>
<h2>Drying</h2>
<p>Line drying is ideal: it is kind to the fibres and leaves linen smelling fresh. If you use a tumble dryer, choose a low heat and take the linen out while it is still slightly damp, then shake it out and put it straight on the bed. Over-drying is the main cause of stiff, brittle linen.</p>
<h3>What about fabric softener?</h3>
<p>Leave it out. Softener coats the fibres and reduces linen's ability to absorb moisture, which is one of the reasons it feels so comfortable. Linen softens naturally with use. Wool dryer balls help if you want a little extra softness from the dryer.</p>
<blockquote>Wrinkles are not a flaw. If you prefer a crisper look, iron linen while it is still damp on a medium-high setting.</blockquote>
<p>Store clean, fully dry linen in a cool, ventilated cupboard, and rotate between two sets so each one gets a rest. With that routine, your sheets will be softer in year five than they were in year one.</p>`,
    tags: ["linen", "bedding care", "laundry", "how-to"],
    featured: false,
    published: true,
    metaTitle: "How to Wash Linen Bedding: A Step-by-Step Care Guide",
    metaDescription:
      "Wash temperature, detergent, drying and ironing tips that keep linen sheets and duvet covers soft, strong and lasting for decades.",
    daysAgo: 19,
    image: { hue: 190, motif: "basket" },
  },
  {
    title: "Choosing a Down Duvet: Fill Power, Fill Weight and Warmth",
    slug: "choosing-a-down-duvet",
    excerpt:
      "Fill power, fill weight, baffle boxes, tog ratings: the terms on a duvet label, explained in plain English.",
    content: `<p>A down duvet is one of the best investments you can make in your sleep, and a good one lasts ten years or more. The labels can be confusing, though. Here are the terms that matter and how they affect warmth.</p>
<h2>Fill power is about quality</h2>
<p>Fill power measures how much space one ounce of down occupies, in cubic inches. Higher fill power means larger down clusters that trap more air, so the duvet is lighter and loftier for the same warmth. Around 600 is good quality; 700 to 800 and above is excellent. Fill power tells you about quality, not warmth on its own.</p>
<h2>Fill weight is about warmth</h2>
<p>Fill weight is how much down is inside. Two duvets with the same fill power can feel very different if one has twice the fill weight. When you compare duvets, look at both numbers together. Some brands sum this up with a warmth level such as light, all-season and extra warm, and in the UK and Europe you will also see a <em>tog</em> rating, where a higher number means warmer.</p>
<h2>Construction</h2>
<ul>
<li><strong>Baffle box:</strong> fabric walls between the top and bottom layers let the down loft fully and prevent cold spots. Best for warmer duvets.</li>
<li><strong>Sewn-through:</strong> the top and bottom are stitched together. Lighter and less expensive, well suited to summer weights.</li>
</ul>
<h3>Responsible sourcing</h3>
<p>Look for the <a href="https://textileexchange.org/responsible-down-standard/">Responsible Down Standard</a> or an equivalent certification, which means the birds were not live-plucked or force-fed. Also check that the shell is downproof cotton, so feathers do not poke through.</p>
<blockquote>Hot sleepers: choose a lower fill weight, not a lower fill power. You keep the light, airy feel without the heat.</blockquote>
<p>Shake your duvet out each morning, air it in the sun a few times a year, and always use a duvet cover. Wash the duvet itself only once or twice a year, ideally in a large-capacity machine, and dry it thoroughly with a few dryer balls to break up clumps.</p>`,
    tags: ["duvet", "down", "buying guide", "winter", "sleep"],
    featured: true,
    published: true,
    metaTitle: "How to Choose a Down Duvet: Fill Power and Warmth",
    metaDescription:
      "Fill power vs fill weight, baffle-box vs sewn-through, tog ratings and responsible down: everything you need to choose the right down duvet.",
    daysAgo: 27,
    image: { hue: 205, motif: "duvet" },
  },
  {
    title: "The Right Pillow for Your Sleep Position",
    slug: "pillow-guide-sleep-position",
    excerpt:
      "Your pillow's job is to keep your neck in line with your spine. The right height depends on how you sleep.",
    content: `<p>A good pillow fills the space between your head and the mattress so your neck stays in a neutral line with your spine. How much space that is depends mostly on your sleep position, and a little on your build and how soft your mattress is.</p>
<h2>Side sleepers</h2>
<p>There is a big gap between your ear and your shoulder, so you need a higher, firmer pillow. Gusseted pillows, with a fabric wall around the edge, hold their height well. If you find yourself folding your pillow in half or tucking an arm under it, it is too low.</p>
<h2>Back sleepers</h2>
<p>A medium-height pillow that supports the curve of your neck without pushing your chin toward your chest. Down, down alternative and shredded memory foam all work well here.</p>
<h2>Stomach sleepers</h2>
<p>A thin, soft pillow, or none at all under your head. A high pillow twists your neck upward. Some stomach sleepers find a flat pillow under the hips helps relieve the lower back.</p>
<h3>Fill types at a glance</h3>
<ul>
<li><strong>Down:</strong> soft, mouldable, long-lasting; the softest choice.</li>
<li><strong>Down alternative:</strong> similar feel, machine washable, good for allergies.</li>
<li><strong>Shredded memory foam:</strong> supportive and adjustable if the cover unzips.</li>
<li><strong>Buckwheat hulls:</strong> firm, very breathable and adjustable.</li>
<li><strong>Latex:</strong> springy, resilient and cool.</li>
</ul>
<p>Most pillows need replacing every one to two years; good down pillows can last longer. A simple test: fold the pillow in half. If it doesn't spring back, it is time for a new one. Zippered pillow protectors under your pillowcase keep them fresher for longer.</p>`,
    tags: ["pillows", "sleep", "buying guide"],
    featured: false,
    published: true,
    metaTitle: "Pillow Guide: The Best Pillow for Your Sleep Position",
    metaDescription:
      "Side, back or stomach sleeper? How to choose pillow height, firmness and fill, plus when to replace your pillows.",
    daysAgo: 36,
    image: { hue: 225, motif: "pillow" },
  },
  {
    title: "Seven Free Habits for Better Sleep",
    slug: "habits-for-better-sleep",
    excerpt: "Before you buy anything, try these seven simple, well-supported habits that help most people sleep better.",
    content: `<p>New bedding can make a bed more comfortable, but the biggest improvements in sleep usually come from habits. These seven cost nothing and are backed by sleep researchers. For more detail, the <a href="https://www.sleepfoundation.org/sleep-hygiene">Sleep Foundation's guide to sleep hygiene</a> is a good place to start.</p>
<ol>
<li><strong>Keep a consistent schedule.</strong> Going to bed and getting up at the same time every day, weekends included, steadies your body clock more than anything else.</li>
<li><strong>Get daylight early.</strong> Ten to twenty minutes of outdoor light in the morning helps set your internal clock and makes it easier to feel sleepy at night.</li>
<li><strong>Keep the room cool.</strong> Around 60–67°F (15–19°C) suits most people. Your body temperature needs to drop a little to fall asleep.</li>
<li><strong>Make it dark and quiet.</strong> Blackout curtains, an eye mask or a white-noise machine all help if you can't control your surroundings.</li>
<li><strong>Watch caffeine timing.</strong> Caffeine can stay in your system for many hours, so try to finish your last coffee by early afternoon.</li>
<li><strong>Build a wind-down routine.</strong> Thirty minutes of something calm, such as reading, a warm shower or stretching, tells your brain that bedtime is coming. Dim the lights and put screens away.</li>
<li><strong>Save the bed for sleep.</strong> If you've been lying awake for a long time, get up, do something quiet in low light, and come back when you feel sleepy.</li>
</ol>
<blockquote>Consistency beats perfection. A regular wake-up time, even after a bad night, is the single most useful habit on this list.</blockquote>
<p>If you still struggle to sleep after a few weeks of good habits, or you snore loudly or wake up gasping, talk to a doctor. Ongoing insomnia and sleep apnoea are common and treatable.</p>`,
    tags: ["sleep", "wellbeing", "routines", "health"],
    featured: false,
    published: true,
    metaTitle: "7 Free Habits for Better Sleep Tonight",
    metaDescription:
      "A consistent schedule, morning light, a cool dark room and a calm wind-down: seven simple, research-backed habits for better sleep.",
    daysAgo: 55,
    image: { hue: 240, motif: "lamp" },
  },
  {
    title: "How to Layer a Bed Like a Stylist",
    slug: "how-to-layer-a-bed",
    excerpt:
      "A layered bed looks inviting and works harder through the seasons. Build it up from the mattress in five easy steps.",
    content: `<p>A well-layered bed looks generous and inviting in photos, but layering is also practical: it lets you add or remove warmth without swapping your whole bed. Build it from the bottom up.</p>
<h2>1. The foundation</h2>
<p>Start with a mattress protector and, if you want extra softness, a topper. Then a fitted sheet that is deep enough for your mattress; a sheet that pops off at the corners spoils everything above it.</p>
<h2>2. Sheets and duvet</h2>
<p>Add a flat sheet if you use one, then your duvet in its cover. For a relaxed look, leave the duvet loose. For a tailored look, fold the top third back toward the foot of the bed to show off the sheets.</p>
<h2>3. A second layer</h2>
<p>A quilt, coverlet or blanket folded across the bottom third adds texture and a band of contrasting colour. It is also the first thing you will reach for on a cold night.</p>
<h2>4. Pillows</h2>
<ul>
<li><strong>Sleeping pillows</strong> against the headboard, in pillowcases that match your sheets.</li>
<li><strong>Shams or Euro pillows</strong> in front, in the duvet fabric or a contrasting one.</li>
<li><strong>One or two decorative pillows</strong>, such as a lumbar pillow, to finish. More than that and you will spend every night moving them.</li>
</ul>
<h2>5. The finishing throw</h2>
<p>Drape a throw casually over one corner rather than folding it perfectly. It breaks up straight lines and makes the bed look lived-in.</p>
<blockquote>Keep to three colours: one main neutral, one supporting shade and one accent. Vary the textures instead, such as linen, waffle, knit and velvet.</blockquote>`,
    tags: ["styling", "bedroom", "throws", "pillows", "bedding"],
    featured: false,
    published: true,
    metaTitle: "How to Layer a Bed Like a Stylist in 5 Steps",
    metaDescription:
      "From mattress protector to finishing throw: how to layer sheets, quilts, pillows and throws for a bed that looks inviting and works in every season.",
    daysAgo: 63,
    image: { hue: 20, motif: "throw" },
  },
  {
    title: "Small Bedroom, Calm Bedroom: Styling Ideas That Make Space",
    slug: "small-bedroom-styling-ideas",
    excerpt:
      "A small bedroom can still feel restful. Light, scale and a bit of editing do most of the work.",
    content: `<p>A small bedroom can be the most restful room in the house. The goal is not to make it look bigger than it is, but to make it feel calm and uncluttered. These ideas help.</p>
<h2>Keep the palette light and close</h2>
<p>Choose wall colours and bedding from the same family, such as warm whites with oatmeal, or soft greys with dusty blue. Fewer contrasts make the edges of the room recede and the space feel more open.</p>
<h2>Think about scale</h2>
<ul>
<li>A bed with visible legs or a low platform frame shows more floor, which makes the room feel larger.</li>
<li>Wall-mounted reading lamps free up bedside tables, or let you use a narrower one.</li>
<li>One large piece of art calms a room more than lots of small ones.</li>
</ul>
<h2>Use mirrors and light</h2>
<p>A mirror opposite or beside a window bounces daylight around the room. Sheer linen curtains let light in while keeping privacy; add a blackout blind behind them for sleep.</p>
<h2>Store under and upward</h2>
<p>Under-bed storage bags hold spare bedding and out-of-season clothes. A blanket ladder uses wall height instead of floor space and keeps throws within reach.</p>
<blockquote>Edit once a season: if something has no place to live, it doesn't belong in the bedroom.</blockquote>`,
    tags: ["styling", "bedroom", "small spaces", "decor"],
    featured: false,
    published: true,
    metaTitle: "Small Bedroom Ideas for a Calm, Uncluttered Space",
    metaDescription:
      "Light palettes, the right scale of furniture, mirrors and clever storage: practical styling ideas for a small bedroom that feels calm.",
    daysAgo: 78,
    image: { hue: 200, motif: "mirror" },
  },
  {
    title: "Do You Need a Mattress Topper?",
    slug: "do-you-need-a-mattress-topper",
    excerpt:
      "A topper can transform a mattress that's too firm, but it can't rescue one that sags. How to tell which you have.",
    content: `<p>A mattress topper is a removable layer, usually two to three inches thick, that sits on top of your mattress under the fitted sheet. It is a good fix for some problems and no fix at all for others.</p>
<h2>When a topper helps</h2>
<ul>
<li>Your mattress is <strong>too firm</strong> and you wake with sore hips or shoulders.</li>
<li>You've moved into a <strong>rental or guest room</strong> with a mattress you can't replace.</li>
<li>You <strong>sleep hot</strong> and want a breathable wool or latex layer.</li>
<li>You want to <strong>extend the life</strong> of a mattress that is still supportive but feels tired on the surface.</li>
</ul>
<h2>When it doesn't</h2>
<p>If your mattress has a visible dip, broken springs, or you roll toward the middle, a topper will simply follow the sag. At that point the support layers are worn and it is time for a new mattress.</p>
<h2>Choosing a material</h2>
<h3>Memory foam</h3>
<p>Contours closely and relieves pressure. It can feel warm, so gel-infused or open-cell foams are worth looking for.</p>
<h3>Latex</h3>
<p>Springy, responsive and cooler than memory foam, with a more buoyant, on-top-of-the-bed feel.</p>
<h3>Wool</h3>
<p>A gentler softening effect and excellent temperature regulation. Wool wicks moisture, so it suits hot and cold sleepers alike.</p>
<p>Whichever you choose, put a mattress protector over the topper to keep it clean; most toppers are difficult to wash.</p>`,
    tags: ["mattress topper", "sleep", "buying guide"],
    featured: false,
    published: true,
    metaTitle: "Do You Need a Mattress Topper? How to Decide",
    metaDescription:
      "When a mattress topper helps, when it won't, and how memory foam, latex and wool toppers compare for comfort and temperature.",
    daysAgo: 92,
    image: { hue: 40, motif: "mattress" },
  },
  {
    title: "How Often Should You Wash Your Sheets, Pillows and Duvet?",
    slug: "how-often-to-wash-bedding",
    excerpt: "A simple washing schedule for everything on your bed, from pillowcases to the duvet itself.",
    content: `<p>We spend about a third of our lives in bed, and bedding quietly collects sweat, skin cells, body oils and dust. Here is a practical schedule that keeps a bed fresh without doing laundry every day.</p>
<h2>The schedule</h2>
<ul>
<li><strong>Sheets and pillowcases:</strong> every week, or every two weeks at most. Wash pillowcases more often if you have acne-prone skin or use hair products.</li>
<li><strong>Duvet cover:</strong> every one to two weeks, with your sheets if you don't use a flat sheet.</li>
<li><strong>Mattress protector and pillow protectors:</strong> about once a month.</li>
<li><strong>Blankets and throws:</strong> every month or two, more often if pets use them.</li>
<li><strong>Pillows:</strong> two to four times a year, following the care label.</li>
<li><strong>Duvet:</strong> once or twice a year. Air it outside on a dry, sunny day in between.</li>
</ul>
<h2>Make it easier</h2>
<p>Keep two sets of sheets per bed so one is always clean. Strip the bed in the morning and let the mattress air for an hour before remaking it. Protectors under pillowcases and the fitted sheet mean the expensive layers need washing far less often.</p>
<h3>Washing pillows and duvets</h3>
<p>Use a large-capacity machine, a gentle cycle and a mild detergent. Dry thoroughly on low heat with wool dryer balls, checking for damp clumps; down that is put away damp can develop mildew.</p>
<blockquote>Rule of thumb: anything that touches your skin weekly, anything that protects the layers below monthly, and the big pieces twice a year.</blockquote>`,
    tags: ["bedding care", "laundry", "hygiene"],
    featured: false,
    published: true,
    metaTitle: "How Often to Wash Sheets, Pillows and Duvets",
    metaDescription:
      "A simple bedding washing schedule: sheets weekly, protectors monthly, pillows and duvets a few times a year, plus tips to make it easy.",
    daysAgo: 107,
    image: { hue: 185, motif: "towel" },
  },
  {
    title: "Summer Bedding: How to Stay Cool at Night",
    slug: "summer-bedding-guide",
    excerpt:
      "Swap a few layers, pick breathable fabrics and use the cool of the evening. A calmer, cooler bed for hot nights.",
    content: `<p>Hot nights are one of the most common reasons for poor sleep. Air conditioning helps, but the right bedding can make a surprising difference, with or without it.</p>
<h2>Choose breathable fibres</h2>
<p><strong>Linen</strong> and <strong>cotton percale</strong> are the coolest choices. Both let air move freely and absorb moisture without feeling clammy. Save sateen, jersey and flannel for cooler months, and avoid polyester sheets, which trap heat.</p>
<h2>Lighten the layers</h2>
<ul>
<li>Swap your all-season duvet for a summer-weight duvet, or put it away entirely and sleep under a light quilt or just a top sheet.</li>
<li>Keep a thin cotton blanket folded at the foot of the bed for the cooler hours before dawn.</li>
<li>If you share a bed with someone who runs cold, use two separate lightweight covers instead of one heavy one.</li>
</ul>
<h2>Use the evening</h2>
<p>Close curtains and blinds during the day to keep sunlight out, then open windows when the outside air cools. A fan near an open window draws cool air in. A lukewarm shower before bed helps your body shed heat; a cold one can make you feel warmer afterwards.</p>
<h3>Pillows run hot too</h3>
<p>Dense memory foam holds heat. Buckwheat, latex and down pillows stay cooler, and a linen or percale pillowcase helps. Flip the pillow to the cool side as needed.</p>`,
    tags: ["seasonal", "summer", "linen", "sleep"],
    featured: false,
    published: true,
    metaTitle: "Summer Bedding Guide: How to Sleep Cool on Hot Nights",
    metaDescription:
      "Breathable linen and percale, lighter layers, cooler pillows and simple room tricks to help you stay cool and sleep well on hot summer nights.",
    daysAgo: 128,
    image: { hue: 180, motif: "duvet" },
  },
  {
    title: "Storing Seasonal Bedding the Right Way",
    slug: "storing-seasonal-bedding",
    excerpt:
      "Put your winter duvet away properly and it will come out fresh, lofty and ready to use. Here's how.",
    content: `<p>Swapping bedding with the seasons makes a bed more comfortable all year, but poorly stored bedding comes out smelling musty, flattened or yellowed. A little care when putting it away prevents all of that.</p>
<h2>Clean and completely dry</h2>
<p>Always wash bedding before storing it. Body oils and small stains that are invisible now will oxidise and yellow over months. Then make sure everything is completely dry, especially duvets and pillows; even slight dampness can lead to mildew.</p>
<h2>Let it breathe</h2>
<p>Natural fibres need airflow. Use cotton storage bags, breathable canvas boxes or even an old pillowcase, not sealed plastic. Avoid vacuum-sealing down or wool for long periods: compression for months can damage the clusters and reduce loft.</p>
<h2>Choose the right spot</h2>
<ul>
<li>Cool, dry and dark: a linen cupboard or under the bed, not a damp basement or a hot attic.</li>
<li>Cedar blocks or lavender sachets help deter moths, especially for wool blankets.</li>
<li>Fold linens loosely, and refold them in a different place occasionally to avoid permanent creases.</li>
</ul>
<h3>Taking it back out</h3>
<p>Give duvets and pillows a good shake and an hour or two of fresh air, or a short tumble on low heat with dryer balls, to restore their loft before use.</p>`,
    tags: ["bedding care", "storage", "organisation", "seasonal"],
    featured: false,
    published: true,
    metaTitle: "How to Store Seasonal Bedding and Duvets",
    metaDescription:
      "Clean, dry and breathable: how to store duvets, pillows, blankets and sheets so they come out fresh and lofty next season.",
    daysAgo: 151,
    image: { hue: 38, motif: "box" },
  },
  {
    title: "OEKO-TEX, GOTS and RDS: What Bedding Labels Actually Mean",
    slug: "textile-certifications-explained",
    excerpt:
      "Certifications can tell you a lot about how your bedding was made, if you know what each one covers. A quick guide.",
    content: `<p>Bedding labels are full of logos. Some are meaningful, independent certifications; others are marketing. Here are three you will see often, and what each one does and does not promise.</p>
<h2>OEKO-TEX STANDARD 100</h2>
<p><a href="https://www.oeko-tex.com/en/our-standards/oeko-tex-standard-100">OEKO-TEX STANDARD 100</a> means the finished product, including threads, buttons and zips, has been tested for a long list of harmful substances. It is about what is <em>in</em> the textile, not how the fibre was grown: an OEKO-TEX cotton sheet is not necessarily organic.</p>
<h2>GOTS (Global Organic Textile Standard)</h2>
<p><a href="https://global-standard.org/">GOTS</a> covers organic fibres through the whole supply chain: growing, spinning, dyeing and sewing. Products labelled "organic" must contain at least 95% certified organic fibre (70% for "made with organic"), and the processing must meet environmental and social criteria. It is one of the most comprehensive labels for cotton and linen.</p>
<h2>RDS (Responsible Down Standard)</h2>
<p>The Responsible Down Standard is an animal-welfare certification for down and feathers. It prohibits live-plucking and force-feeding and tracks the down from farm to finished product.</p>
<h3>How to use them</h3>
<ul>
<li>Want fewer chemical residues against your skin? Look for OEKO-TEX.</li>
<li>Care about farming and factory conditions? Look for GOTS.</li>
<li>Buying a down duvet or pillow? Look for RDS or an equivalent.</li>
</ul>
<p>A genuine certification comes with a licence or certificate number that you can check on the certifier's website. If a brand can't tell you the number, treat the logo with caution.</p>`,
    tags: ["sustainability", "organic", "certifications", "buying guide"],
    featured: false,
    published: true,
    metaTitle: "OEKO-TEX, GOTS and RDS Bedding Labels Explained",
    metaDescription:
      "What OEKO-TEX STANDARD 100, GOTS and the Responsible Down Standard each certify, what they don't, and how to check a label is genuine.",
    daysAgo: 176,
    image: { hue: 110, motif: "frame" },
  },
  {
    title: "Caring for Silk Pillowcases",
    slug: "silk-pillowcase-care",
    excerpt: "Silk is easier to look after than you might think. Gentle washing and no heat keep it lustrous.",
    content: `<p>A silk pillowcase feels smooth against your skin and hair, and with the right care it keeps its lustre for years. The key is to be gentle: cool water, mild soap and no heat.</p>
<h2>Washing</h2>
<ol>
<li>Turn the pillowcase inside out and close the zip.</li>
<li>Hand wash in cool water, or machine wash in a mesh laundry bag on a delicate cycle at 30°C (86°F) or below.</li>
<li>Use a pH-neutral detergent made for silk or wool. Regular detergents with enzymes can damage silk proteins.</li>
<li>Never use bleach or fabric softener.</li>
</ol>
<h2>Drying</h2>
<p>Roll the pillowcase in a clean towel to press out water; don't wring it. Hang it to dry out of direct sunlight, which can fade colours and weaken fibres. Skip the tumble dryer.</p>
<h3>Ironing</h3>
<p>If needed, iron on the silk setting while slightly damp, on the reverse side, or use a pressing cloth.</p>`,
    tags: ["silk", "bedding care", "pillows"],
    featured: false,
    published: false,
    metaTitle: "How to Wash and Care for a Silk Pillowcase",
    metaDescription:
      "Cool water, pH-neutral detergent and no heat: a simple guide to washing, drying and ironing silk pillowcases so they stay smooth.",
    daysAgo: 2,
    image: { hue: 330, motif: "pillow" },
  },
  {
    title: "Our Autumn Colour Edit: Clay, Olive and Oat",
    slug: "autumn-colour-edit",
    excerpt: "Three warm, earthy shades for the cooler months, and how to combine them on the bed.",
    content: `<p>As the evenings draw in, we like to bring warmer, earthier colours into the bedroom. This season's edit centres on three shades that work on their own or together.</p>
<h2>The colours</h2>
<ul>
<li><strong>Clay:</strong> a soft, muted terracotta that adds warmth without shouting.</li>
<li><strong>Olive:</strong> a deep, grounding green that pairs well with wood furniture.</li>
<li><strong>Oat:</strong> a warm neutral that ties everything together.</li>
</ul>
<h2>Putting them together</h2>
<p>Start with oat sheets as a calm base. Add a clay duvet cover for warmth, then bring in olive through a quilt or a pair of cushion covers. A chunky knit throw in cream softens the whole look.</p>
<h3>A note on texture</h3>
<p>Earthy colours look richest on textured fabrics. Washed linen, waffle cotton and wool all catch the light in a way that flat fabrics can't.</p>`,
    tags: ["styling", "colour", "autumn", "bedroom"],
    featured: false,
    published: false,
    metaTitle: "Autumn Bedding Colours: Clay, Olive and Oat",
    metaDescription:
      "Our autumn colour edit for the bedroom: warm clay, deep olive and soft oat, plus ideas for layering them with texture.",
    daysAgo: 1,
    image: { hue: 20, motif: "vase" },
  },
  {
    title: "A Calm Bedroom Starts With Light",
    slug: "bedroom-lighting-guide",
    excerpt:
      "Layered, warm lighting helps a bedroom feel restful and makes winding down easier. Here is how to plan it.",
    content: `<p>Lighting does more to set the mood of a bedroom than almost anything else. Harsh overhead light at night keeps you alert; soft, low, warm light helps you wind down. Plan for three layers.</p>
<h2>Ambient light</h2>
<p>General light for getting dressed and cleaning. A ceiling fitting with a diffusing shade is fine, but put it on a dimmer so it isn't the only option in the evening.</p>
<h2>Task light</h2>
<p>A reading lamp on each side of the bed, at a height where the bottom of the shade sits roughly at eye level when you are sitting up. Swing-arm wall lamps are useful when bedside tables are small.</p>
<h2>Accent light</h2>
<p>A small lamp on a dresser, a candle in a hurricane glass or a string of warm lights. These are the lights you use in the last half hour before bed.</p>
<h3>Choosing bulbs</h3>
<ul>
<li>Pick warm white LEDs, around 2700K or lower, for bedside and accent lamps.</li>
<li>Dimmable bulbs give you more control than switching lamps on and off.</li>
<li>Keep bright, cool-white light for the morning, when it helps you wake up.</li>
</ul>
<blockquote>Never leave candles burning unattended, and keep them well away from curtains and bedding.</blockquote>`,
    tags: ["lighting", "bedroom", "styling", "sleep"],
    featured: false,
    published: true,
    metaTitle: "Bedroom Lighting Guide: Layered Light for Calm",
    metaDescription:
      "How to layer ambient, task and accent lighting in the bedroom, and which bulbs help you wind down at night and wake up in the morning.",
    daysAgo: 198,
    image: { hue: 30, motif: "lamp" },
  },
];
