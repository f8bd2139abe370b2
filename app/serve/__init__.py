"""`folio serve`: one long-running process per library that later `folio` calls reuse over a Unix socket."""
