"""`python -m app`: the same entry as the `folio` console script."""

from app.main import main

if __name__ == "__main__":  # spawn-started workers import this module as __mp_main__
    raise SystemExit(main())
