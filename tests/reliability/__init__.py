"""The reliability campaign (FOLIO_RELIABILITY_SCALE=big runs the full sizes)."""
