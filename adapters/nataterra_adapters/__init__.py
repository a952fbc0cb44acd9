"""Thin front ends over nataterra_core: the ``nataterra`` command line (and, later, JSON-RPC)."""
