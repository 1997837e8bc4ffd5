"""Fleet coordination: the local-file backend and the PostgreSQL backend of `daemon.model.coordination_protocol`."""
