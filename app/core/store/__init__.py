"""SQLite store (SQLAlchemy 2 ORM): documents, chunks, full-text tables, chats and traces."""
