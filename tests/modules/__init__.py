"""Reference modules built only through the public API (see :mod:`tests.modules.catalogue`)."""
