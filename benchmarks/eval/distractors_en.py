"""The English distractors of the eval set: documents on the same subjects as texts_en.py's whose
figures differ, so that retrieval has to find the right document and an answer has to come from it."""

from __future__ import annotations

from benchmarks.eval.texts_en import Document

ESPRESSO_KX60: Document = (
    "Aurelia KX-60 Dual Boiler - Quick Reference",
    [
        [
            "About this guide",
            "This quick reference covers the Aurelia KX-60 Dual Boiler. For safety instructions, read "
            "the full owner's manual supplied in the box. The KX-60 shares its grinder and its "
            "brewing unit with the smaller KX-40, but it has two boilers, so it can brew and steam "
            "at the same time.",
            "Specifications",
            "Rated voltage: 220-240 V, 50 Hz. Rated power: 1850 W. Pump pressure: 15 bar; brewing "
            "pressure: 9 bar. Heat-up time: about 90 seconds for both boilers.",
            "Water tank: 2.5 litres. Bean hopper: 350 g. Grinder: 18 settings, factory setting 8.",
            "Dimensions: 33 x 45 x 40 cm. Weight: 12.4 kg. Automatic switch-off after 60 minutes.",
            "Brewing temperature: five levels from 88 to 96 degrees C in 2-degree steps; factory "
            "setting: 92 degrees C.",
        ],
        [
            "Error codes",
            "E3: the steam boiler is empty. Fill the water tank and hold the steam button for "
            "5 seconds to refill the boiler.",
            "E5: the brew boiler has overheated. Switch the machine off and let it cool for 30 minutes.",
            "E7: the drip tray is missing or full.",
            "E9: the grinder is blocked. Empty the hopper and call the service centre.",
            "Care",
            "Descale every 2 months, or after 40 litres. The descaling program takes about "
            "35 minutes. Replace the water filter every 3 months.",
            "Warranty",
            "The KX-60 carries a 24-month warranty, extended to 48 months for machines registered "
            "within 14 days of purchase.",
        ],
    ],
)

RELEASE_NOTES_31: Document = (
    "Tessel 3.1 Release Notes",
    [
        [
            "Tessel 3.1 was released on 2 September 2024.",
            "Highlights",
            "- Raster tiles can now be rendered at zoom levels up to 22.",
            "- The server listens on port 8080 by default; set server.port to change it.",
            "- New cache option cache.max_size_mb, default 512, caps the tile cache on disk.",
            "- PostGIS 3.1 or newer is required.",
            "- Statistics are served at /stats as JSON.",
            "Fixed bugs",
            "- #2104: the seeder stopped after the first failed tile.",
            "- #2119: crash when a style referenced a missing font.",
            "- #2150: TLS certificates were not reloaded on SIGHUP.",
        ],
        [
            "Performance",
            "On the reference benchmark (4 CPU cores, 200 requests per second), the 95th-percentile "
            "tile latency is 38 ms, down from 55 ms in 3.0, and the cache hit rate is 81%.",
            "Deprecations",
            "- The --legacy-auth flag still works but logs a warning; it will be removed in a "
            "future release.",
            "- TLS 1.0 and 1.1 remain enabled for old clients in this release.",
            "Support",
            "The 2.x series reached end of life on 31 March 2024. This release contains work by "
            "29 contributors.",
        ],
    ],
)

DO_PROCEDURE_LP08: Document = (
    "Laboratory Procedure LP-08: Dissolved Oxygen, Permanganate Modification",
    [
        [
            "1. Scope",
            "This procedure applies to samples containing ferrous iron above 1 mg/L, where the azide "
            "modification (LP-07) gives low results. The detection limit is 0.2 mg/L.",
            "2. Sampling",
            "Collect samples in 250 ml BOD bottles and fix them within 30 minutes of collection. "
            "Fixed samples may be stored in the dark for up to 4 hours.",
            "3. Procedure",
            "Add 0.7 ml of concentrated sulfuric acid and 1 ml of potassium permanganate solution "
            "(6.3 g/L). Wait 5 minutes; if the violet colour fades, add more permanganate. Remove "
            "the excess with 1 ml of potassium oxalate solution, then continue as in LP-07, adding "
            "3 ml of manganese sulfate and 3 ml of alkaline iodide reagent.",
            "Titrate with 0.0125 M sodium thiosulfate. Analyse one duplicate for every 5 samples; "
            "duplicates must agree within 0.3 mg/L.",
        ],
    ],
)

DISTRACTORS: dict[str, Document] = {
    "aurelia-kx60-quick-reference.pdf": ESPRESSO_KX60,
    "tessel-3.1-release-notes.pdf": RELEASE_NOTES_31,
    "lp08-dissolved-oxygen-permanganate.pdf": DO_PROCEDURE_LP08,
}
