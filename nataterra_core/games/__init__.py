"""The rule systems that ship with the library, one package each."""
