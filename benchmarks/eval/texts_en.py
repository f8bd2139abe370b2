"""The English documents of the eval set: each a title and pages of paragraphs (Latin-1 only)."""

from __future__ import annotations

Document = tuple[str, list[list[str]]]

ESPRESSO_MANUAL: Document = (
    "Aurelia KX-40 Espresso Machine - Owner's Manual",
    [
        [
            "1. Before you start",
            "Thank you for choosing the Aurelia KX-40, a compact bean-to-cup espresso machine for the "
            "home. Read this manual completely before the first use and keep it near the machine. "
            "The KX-40 grinds, doses, tamps and brews in one cycle, and its steam wand froths milk for "
            "cappuccino and flat white.",
            "2. Safety instructions",
            "Connect the machine only to an earthed socket rated 220-240 V, 50/60 Hz. The machine draws "
            "up to 1450 W while heating, so do not share the socket with a kettle or a heater through "
            "a multi-way adapter. Never immerse the base, the cable or the plug in water.",
            "The machine may be used by children aged 8 years and above only under supervision. "
            "Cleaning must not be done by children. Keep the machine and its cable out of the reach of "
            "children younger than 8 years.",
            "Hot surfaces: the cup tray, the brewing unit and the metal tip of the steam wand reach "
            "more than 90 degrees C during use. Always hold the wand by its insulated sleeve.",
            "Do not operate the machine at altitudes above 2000 m: water boils at a lower temperature "
            "there, and the steam valve cannot regulate the pressure correctly.",
            "3. Contents of the box",
            "Espresso machine, water tank with lid, drip tray with grille, coffee grounds container, "
            "measuring scoop for ground coffee, milk jug (350 ml), water hardness test strip, one "
            "filter cartridge AquaClear, and this manual.",
        ],
        [
            "4. Technical specifications",
            "Rated voltage: 220-240 V, 50/60 Hz. Rated power: 1450 W. Standby consumption: below 0.5 W.",
            "Pump: vibration pump, maximum pressure 15 bar. Brewing pressure at the group: 9 bar, "
            "controlled by an over-pressure valve.",
            "Heating system: thermoblock with PID control. Heat-up time from cold: about 45 seconds. "
            "Switching from brewing to steam takes about 20 seconds.",
            "Water tank: 1.8 litres, removable, filled from the top. Bean hopper: 250 g of coffee beans, "
            "with an aroma-sealing lid. Grounds container: up to 12 used coffee pucks.",
            "Grinder: conical steel burrs, 12 grind settings (1 is the finest). Factory setting: 6.",
            "Dimensions (W x D x H): 28 x 42 x 38 cm. Weight: 9.2 kg without water. Cable length: 1.2 m.",
            "Noise while grinding: about 68 dB(A). Noise while brewing: about 55 dB(A).",
            "Automatic switch-off: the machine goes to standby after 30 minutes without use; this "
            "interval can be set to 15, 30, 60 or 120 minutes in the settings menu.",
            "Materials in contact with water and coffee are free of BPA. The drip tray holds 0.6 litres.",
        ],
        [
            "5. Preparing coffee",
            "Before the first use, rinse the water tank, fill it with fresh cold water and run two "
            "cups of hot water through the spout without coffee. Discard this water.",
            "Press the single-cup button once for a single espresso of 40 ml, or twice for a double "
            "espresso of 80 ml. A lungo (the long button) pours 110 ml through the same grounds. "
            "Each volume can be reprogrammed between 20 and 200 ml: hold the button until it blinks, "
            "then release it when the cup holds the amount you want.",
            "Brewing temperature has three levels: low (90 degrees C), medium (93 degrees C) and high "
            "(96 degrees C). The machine leaves the factory set to medium. Dark roasts taste less "
            "bitter at the low level; light roasts often need the high level.",
            "Grind size: if the coffee runs too fast and tastes thin, choose a finer setting (a lower "
            "number). If it runs only in drops, choose a coarser setting. Change the grind setting "
            "only while the grinder is running, one step at a time.",
            "6. Frothing milk",
            "Fill the milk jug up to one third with cold milk (4-6 degrees C). Turn the selector to "
            "the steam symbol and wait until the steam light stops blinking. Dip the wand just below "
            "the surface; lower it as the foam rises. Stop at 60-65 degrees C: hotter milk loses its "
            "sweetness. Wipe the wand and purge it for two seconds after every use.",
        ],
        [
            "7. Cleaning and descaling",
            "Empty the drip tray and the grounds container every day. The red float in the drip tray "
            "rises when the tray is full. Rinse the brewing unit under running water once a week; "
            "never put it in the dishwasher.",
            "Descaling: scale builds up even with the filter cartridge. Descale every 3 months, or "
            "sooner when the amber calc light comes on; the machine counts the water it has used and "
            "asks for descaling after 60 litres at the factory hardness setting.",
            "To descale, mix 250 ml of Aurelia Descaler with 750 ml of water in the tank, remove the "
            "filter cartridge, place a 1-litre container under the spout and the wand, and hold the "
            "calc button for 3 seconds. The program runs in two halves with a pause; the whole "
            "program takes about 25 minutes. Then rinse the tank and run the rinse program (about "
            "6 minutes) with clean water.",
            "Filter cartridge: replace the AquaClear cartridge every 2 months or after 50 litres, "
            "whichever comes first. A new cartridge must be soaked for 5 minutes before use.",
            "Water hardness: dip the test strip in tap water for 1 second and count the red squares "
            "after one minute. Enter the result (1 to 4) in the settings menu; the descaling "
            "interval is adjusted to it.",
        ],
        [
            "8. Troubleshooting",
            "E3 on the display: the water tank is not detected. Push the tank fully down until it "
            "clicks; check that the float inside the tank is not stuck.",
            "E5 on the display: the boiler has overheated. Switch the machine off at the main switch "
            "and let it cool down for 20 minutes before switching it on again. If E5 returns, "
            "contact the service centre.",
            "E7 on the display: the grinder is blocked, usually by a small stone among the beans or by "
            "oily beans. Empty the hopper, vacuum the burrs and restart.",
            "The coffee is watery: the grind is too coarse or the hopper is empty. Choose a finer "
            "setting and check the beans.",
            "The amber light blinks: descaling is due (see section 7).",
            "No steam: the wand tip is blocked by dried milk. Clean the hole with the pin supplied "
            "under the drip tray.",
            "9. Warranty",
            "The manufacturer's warranty lasts 24 months from the date of purchase. It is extended to "
            "36 months if you register the machine online within 30 days of purchase. Damage caused "
            "by scale is not covered when the machine was never descaled.",
            "Service hotline: +44 20 7946 0123, Monday to Friday, 8:00 to 18:00.",
        ],
    ],
)

TOWN_HISTORY: Document = (
    "Harbourton: A Short History of a River Town",
    [
        [
            "Beginnings",
            "Harbourton lies where the small River Wendle flows into the broader Ashby. A ford crossed "
            "the Ashby here long before the town existed, and the name recalls an inn, the Harbour, "
            "that stood beside it in the seventeenth century.",
            "The town itself dates from 1768, when the Quaker miller Josiah Penrose built a water "
            "mill on the Wendle and laid out two streets of cottages for his workers. Penrose's mill "
            "ground corn at first; by 1790 it had been converted to spin cotton, and three more mills "
            "followed along the same stream within twenty years.",
            "In 1811 Harbourton received its charter as a borough, with a mayor and twelve aldermen. "
            "The first mayor was the ironmonger Samuel Hartley, not Penrose, who as a Quaker declined "
            "the office. The borough seal, still used today, shows a mill wheel above two crossed oars.",
        ],
        [
            "Canal, railway and flood",
            "The Ashby Navigation opened in 1834 and made the town a port for the first time. Its 14 "
            "locks lifted barges 41 metres over a length of 22 miles, and coal came up the valley "
            "at half the price paid before. The canal basin, dug in 1833, is now a marina.",
            "The railway arrived in 1857, when the Midland Valley line reached Harbourton; the "
            "station was rebuilt in red brick in 1883. Between the census of 1851 (4,120 people) and "
            "that of 1901 (11,870 people) the population nearly tripled.",
            "On the night of 11 March 1862 the Great Flood swept away the old wooden bridge across the "
            "Ashby and drowned nine people in the lower town. The stone Penrose Bridge that replaced "
            "it was finished in 1866; it has five arches and was paid for by public subscription. A "
            "plaque on the third arch marks the height the water reached: 4.6 metres above the "
            "normal level.",
        ],
        [
            "The twentieth century",
            "The Town Hall on Market Square was built in 1889 to designs by the architect Thomas "
            "Ellery. Its clock tower, 38 metres high, was for decades the tallest structure in the "
            "valley; the four-faced clock was added in 1891 and is still wound by hand every week.",
            "Electric trams ran from 1902 to 1949 on a single line of 3.2 miles between the station "
            "and the village of Ashby Cross. They were replaced by motor buses.",
            "The cotton trade did not survive the depression. The last of the Wendle mills closed in "
            "1931, throwing some 1,400 people out of work. During the Second World War the empty "
            "Penrose mill made parachutes. The population still grew, to 15,300 in 1951, as new "
            "light industries settled along the canal.",
        ],
        [
            "Harbourton today",
            "In 1972 Harbourton was twinned with Saint-Aubin-sur-Loire in France; a second "
            "partnership, with Kolby in Denmark, followed in 1999. The old Corn Exchange reopened in "
            "1994 as the Harbourton Museum, whose collection includes the original 1811 charter and "
            "a working model of Penrose's mill.",
            "Every year since 1978 the town has held the Lantern Festival on the first Saturday of "
            "October, when a procession of paper lanterns crosses the Penrose Bridge to the canal "
            "basin. Around 8,000 visitors came in 2019.",
            "At the census of 2021 Harbourton had 23,460 inhabitants. The canal now carries pleasure "
            "boats only, and of the four mills one survives: Penrose's original building, converted "
            "into flats in 2008.",
        ],
    ],
)

DO_PROCEDURE: Document = (
    "Laboratory Procedure LP-07: Dissolved Oxygen by Winkler Titration",
    [
        [
            "1. Scope",
            "This procedure determines dissolved oxygen (DO) in fresh and waste water by the azide "
            "modification of the Winkler method. It applies to concentrations from 0.1 mg/L (the "
            "detection limit of this procedure) to about 20 mg/L. Samples with more than 1 mg/L of "
            "ferrous iron need the permanganate modification instead (procedure LP-08).",
            "2. Safety",
            "Wear safety goggles, a lab coat and nitrile gloves. Concentrated sulfuric acid causes "
            "severe burns: add it slowly and keep the bottle in a tray. Sodium azide is acutely toxic "
            "and forms explosive salts with copper and lead: azide-containing waste must never be "
            "poured into sinks with copper or lead plumbing; collect it in the container labelled "
            "AZIDE WASTE.",
            "3. Reagents",
            "Manganese(II) sulfate solution: dissolve 480 g of MnSO4.4H2O in distilled water and "
            "dilute to 1 litre.",
            "Alkaline iodide-azide reagent: dissolve 500 g of sodium hydroxide and 135 g of sodium "
            "iodide in distilled water, dilute to 1 litre, then add 10 g of sodium azide dissolved "
            "in 40 ml of water.",
            "Sodium thiosulfate titrant, 0.025 M: dissolve 6.205 g of Na2S2O3.5H2O in freshly boiled "
            "and cooled water, add 0.4 g of NaOH as a preservative and dilute to 1 litre.",
            "Starch indicator: 2 g of soluble starch per litre, preserved with 0.2 g of salicylic acid.",
        ],
        [
            "4. Sampling",
            "Collect samples in 300 ml glass BOD bottles with ground-glass stoppers. Lower the filling "
            "tube to the bottom of the bottle and let the sample overflow for at least three bottle "
            "volumes, so that the water that was in contact with air is flushed out. No air bubble "
            "may remain under the stopper.",
            "Record the water temperature at the sampling point to 0.1 degrees C and the time of "
            "collection. Fix the oxygen (steps 5.1 to 5.3) within 15 minutes of collection. After "
            "fixing, samples may be kept in the dark at the sampling temperature for up to 8 hours "
            "before titration; unfixed samples must not be stored at all.",
            "Label each bottle with the site code, date, time and the name of the sampler. Blank "
            "bottles filled with distilled water travel with every batch of 20 samples.",
        ],
        [
            "5. Procedure",
            "5.1 Remove the stopper and add 2 ml of manganese(II) sulfate solution, with the pipette "
            "tip below the surface.",
            "5.2 Add 2 ml of alkaline iodide-azide reagent in the same way.",
            "5.3 Replace the stopper without trapping air and mix by inverting the bottle at least "
            "15 times. A brown floc forms when oxygen is present; a white floc means no oxygen. "
            "Let the floc settle to half the bottle volume, then invert again and let it settle once "
            "more.",
            "5.4 Add 2 ml of concentrated sulfuric acid, stopper and invert until the floc has "
            "dissolved completely. The solution turns yellow to brown from the released iodine.",
            "5.5 Measure 201 ml of the acidified sample into a 500 ml conical flask: 201 ml corresponds "
            "to 200 ml of the original sample after correction for the 4 ml of reagents added.",
            "5.6 Titrate with 0.025 M sodium thiosulfate until the colour is pale straw yellow. Add "
            "2 ml of starch indicator; the solution turns blue. Continue titrating drop by drop until "
            "the blue colour just disappears and stays away for 20 seconds. Record the volume used.",
        ],
        [
            "6. Calculation",
            "With 0.025 M thiosulfate and a 200 ml sample, 1 ml of titrant corresponds to 1 mg/L of "
            "dissolved oxygen: DO (mg/L) = volume of titrant (ml). For another titrant molarity M, "
            "DO (mg/L) = ml of titrant x M x 8000 / 200.",
            "Report results to one decimal place, with the water temperature and, where needed, the "
            "percentage of saturation calculated from the temperature and the barometric pressure.",
            "7. Quality control",
            "Standardise the thiosulfate titrant every week against 0.0021 M potassium bi-iodate: "
            "20.00 ml of bi-iodate should use 20.00 ml of titrant; prepare new titrant when the "
            "factor drifts outside 0.98 to 1.02.",
            "Analyse one sample in duplicate for every 10 samples. Duplicates must agree within "
            "0.2 mg/L; otherwise repeat the batch. Record all results in the laboratory notebook "
            "LN-DO with the analyst's initials.",
            "Document history: version 4, approved 2 February 2024 by the laboratory manager. "
            "Replaces version 3 of 2019.",
        ],
    ],
)

RELEASE_NOTES: Document = (
    "Tessel 3.2 Release Notes",
    [
        [
            "Tessel is an open-source server that renders and caches map tiles from PostGIS and "
            "GeoPackage sources. Version 3.2 was released on 14 March 2025.",
            "Highlights",
            "- The vector tile cache has been rewritten. It stores tiles in a single memory-mapped "
            "file per layer and uses 40% less memory than 3.1 on the same data.",
            "- The server now listens on port 8420 by default, instead of 8080, which clashed with too "
            "many other services. Set server.port in tessel.toml to keep the old port.",
            "- New preview page with live reload at /preview, which shows a layer as you edit its "
            "style file.",
            "- Sources: PostGIS 3.3 or newer is now required; PostGIS 3.1 and 3.2 are no longer "
            "supported. GeoPackage sources are unchanged.",
            "- Builds are now published for Linux (x86-64 and arm64), macOS 13 or newer, and "
            "Windows 10 or newer.",
        ],
        [
            "Breaking changes",
            "- The configuration key cache.max_size_mb has been renamed to cache.limit and now accepts "
            'units (for example "2GB"). The default grew from 512 MB to 1 GB. The old key is refused '
            "at start-up with a message naming the new one.",
            "- The --legacy-auth command-line flag, deprecated since 2.8, has been removed. Use API "
            "tokens (tessel token create) instead.",
            "- TLS 1.0 and 1.1 are disabled; the minimum is now TLS 1.2. Old clients that cannot "
            "negotiate TLS 1.2 will fail to connect.",
            "- The maximum zoom level for generated raster tiles is now 20 (it was 22). Requests above "
            "zoom 20 are answered with HTTP 404.",
            "- The metrics endpoint moved from /stats to /metrics and uses the Prometheus text format.",
        ],
        [
            "Fixed bugs",
            "- #2217: the server crashed when a layer had no features at all in the requested area.",
            "- #2231: memory leak in the WebSocket connections of the preview page.",
            "- #2240: visible seams between raster tiles at zoom 15 and above.",
            "- #2252: wrong Content-Type for PBF tiles behind some proxies.",
            "- #2263: tessel seed ignored the --threads option.",
            "Performance",
            "On the reference benchmark (4 CPU cores, 200 requests per second, a city-scale OSM "
            "extract), the 95th-percentile tile latency fell from 38 ms in 3.1 to 21 ms in 3.2, and "
            "the cache hit rate rose from 81% to 93%. Cold start with a warm disk cache now takes "
            "1.4 seconds instead of 6.5.",
        ],
        [
            "Upgrading",
            "1. Back up tessel.toml and the cache directory.",
            "2. Stop the server and install 3.2.",
            "3. Run tessel migrate --to 3.2, which converts the configuration and the cache in place. "
            "On a 50 GB cache the conversion takes about ten minutes.",
            "4. Start the server and check the log for warnings.",
            "Rolling back is supported only to 3.1.4 or later: earlier versions cannot read the new "
            "cache and will rebuild it from scratch.",
            "Support: the 3.0 series reaches end of life on 30 June 2025. The 3.1 series receives "
            "security fixes until 31 December 2025.",
            "This release contains work by 37 contributors, 11 of them new. Thank you all.",
        ],
    ],
)

DOCUMENTS: dict[str, Document] = {
    "aurelia-kx40-manual.pdf": ESPRESSO_MANUAL,
    "harbourton-history.pdf": TOWN_HISTORY,
    "lp07-dissolved-oxygen.pdf": DO_PROCEDURE,
    "tessel-3.2-release-notes.pdf": RELEASE_NOTES,
}
