"""The PySide6 desktop app: views, controllers and the one task runner for background work."""
