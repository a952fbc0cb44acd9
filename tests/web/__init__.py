"""Tests of the browser client and its server (a package, so its conftest is not the
importable ``conftest`` of tests/)."""
