"""Fleet coordination: the local-file backend and the PostgreSQL backend of `daemon.kernel.coordination`."""
