"""An answer in words for people: the verdict's wording and the Markdown and HTML exports (pure, Qt-free)."""
