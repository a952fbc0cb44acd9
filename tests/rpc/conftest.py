"""The JSON-RPC tests' fixtures: a throwaway PostgreSQL cluster (``pg_cluster.py``)."""

from pg_cluster import postgres_cluster, postgres_url

__all__ = ["postgres_cluster", "postgres_url"]
