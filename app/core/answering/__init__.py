"""A question answered: evidence/, judge/, pipeline/, whole/, presentation/ (docs/architecture.md)."""
