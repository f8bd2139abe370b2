"""The facades behind `Folio`, one job each: the library, the chats, the answering."""
