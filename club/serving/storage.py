"""Static files as deployed: hashed names, compressed copies, and ES module imports rewritten."""

from __future__ import annotations

from servestatic.storage import CompressedManifestStaticFilesStorage


class ClubStaticStorage(CompressedManifestStaticFilesStorage):
    # Our scripts are ES modules that import each other ("./cards.js"): rewrite
    # those imports to the hashed names too, so a page never mixes a new module
    # with an old cached one, and every module can be cached for a year.
    support_js_module_import_aggregation = True
